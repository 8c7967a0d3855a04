import { buildChannels } from "../modules/channels/channels.compose.js";
import { AuthThrottle } from "../modules/oidc/auth-throttle.js";
import { buildPresets } from "../modules/presets/presets.compose.js";
import { buildPublishing } from "../modules/publishing/publishing.compose.js";
import { buildShares } from "../modules/shares/shares.compose.js";
import type { Foundation } from "./foundation.js";
import type { StoriesArea } from "./stories.js";

/** What leaves the library: download presets, publishing channels and deliveries, share links. */
export type SharingArea = ReturnType<typeof composeSharing>;

export function composeSharing(
  foundation: Foundation,
  { stories, storyLinks, folders, ingest, propertyAccess }: StoriesArea,
) {
  const { config, db, audit, access, jobs, blobs, media, sharedKeys, outgoing, onBlobDeleteError } = foundation;
  // Watermark and download presets; their renditions are made by the "presets.render" job.
  const presets = buildPresets({
    db,
    media,
    audit: audit.log,
    blobs: blobs.store,
    jobs,
    access: stories.access,
    storyDownloads: stories.downloads,
    outgoing,
    dataDir: config.dataDir,
    timeoutMs: Math.max(60_000, config.media.timeoutMs),
    onBlobDeleteError,
  });
  const channels = buildChannels(db, {
    audit: audit.log,
    credentialsKey: sharedKeys.channelCredentials,
    allowPrivate: config.channels.allowPrivate,
    presetType: (id) => presets.downloads.storyTypeOf(id),
    // Built next (it sends through the channels); asked only while a request runs.
    openDeliveries: (id) => publishing.deliveries.openCount(id),
  });
  const publishing = buildPublishing(db, {
    access: stories.access,
    stories: stories.stories,
    queries: stories.queries,
    channels,
    blobs: blobs.store,
    jobs,
    audit: audit.log,
    renditions: {
      ensureRendered: (presetId, ref, signal, outgoing) =>
        presets.downloads.ensureRendered(presetId, ref, signal, outgoing),
    },
    outgoing,
    // A channel delivers for its publisher: no property their role may not see (docs/property-access.md).
    publisherHidden: async (userId) => {
      const publisher = userId ? await access.authUsers.loadUser(userId) : undefined;
      return publisher ? propertyAccess.hiddenFor(publisher) : propertyAccess.hiddenFromAnyRole();
    },
  });
  const shares = buildShares(db, {
    ...storyLinks,
    folders,
    audit: audit.log,
    downloads: stories.downloads,
    texts: stories.texts,
    owner: async (userId) => {
      const owner = await access.authUsers.loadUser(userId);
      return owner && { ...owner, name: owner.name || owner.username };
    },
    throttle: new AuthThrottle(db),
    // A visitor's dropped file becomes a draft through the one ingest command.
    ingest: { ingestFile: (input) => ingest.ingestFile(input) },
    fileTtlSeconds: config.mediaUrls.ttlSeconds,
    sharedKey: sharedKeys.mediaUrl,
    embargoed: (storyIds) => publishing.deliveries.embargoedNow(storyIds),
    // Field-level access: a visitor sees no story property that is hidden from any role.
    restrictedProperties: () => propertyAccess.hiddenFromAnyRole(),
    presets: {
      storyTypeOf: (id) => presets.downloads.storyTypeOf(id),
      usable: (actor) => presets.downloads.usable(actor),
      ensureRendered: (id, ref, out) => presets.downloads.ensureRendered(id, ref, undefined, out),
    },
  });
  foundation.shareVisits.set(shares.visits);
  return { presets, channels, publishing, shares };
}

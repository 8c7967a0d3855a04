import path from "node:path";
import type { FastifyInstance } from "fastify";
import { refreshSearchOnListen, stripHiddenProperties } from "../app-setup.js";
import { buildPropertyAccess } from "../modules/access/property-access.service.js";
import { RolesRepository } from "../modules/access/roles.repository.js";
import { buildActionTriggers } from "../modules/actions/actions.compose.js";
import { buildCatalogue } from "../modules/catalogue/catalogue.compose.js";
import type { CatalogueUsage } from "../modules/catalogue/shared/catalogue-usage.js";
import { buildFavourites } from "../modules/favourites/favourites.compose.js";
import { buildFolders } from "../modules/folders/folders.compose.js";
import { buildIngest } from "../modules/ingest/ingest.compose.js";
import { buildLibrarySettings } from "../modules/libraries/libraries.compose.js";
import { MediaUrlSigner } from "../modules/media-urls/media-url-signer.js";
import { buildRelations } from "../modules/relations/relations.compose.js";
import { buildSearch } from "../modules/search/search.compose.js";
import { buildStories } from "../modules/stories/stories.compose.js";
import { StoryUsage } from "../modules/stories/story-usage.js";
import { buildUserSettings } from "../modules/user-settings/user-settings.compose.js";
import type { Foundation } from "./foundation.js";

/** The stories and what they are filed, described and found by; and the one ingest command. */
export type StoriesArea = ReturnType<typeof composeStories>;

/** The search index, the catalogue, folders and library settings, the stories, their links, and the ingest. */
export function composeStories(
  app: FastifyInstance,
  {
    config,
    db,
    audit,
    users,
    access,
    libraries,
    jobs,
    storage,
    blobs,
    sharedKeys,
    outgoing,
    onBlobDeleteError,
  }: Foundation,
  seams: { catalogueUsage?: CatalogueUsage },
) {
  // Before the stories: they tell the index of every write, and run their lists through the search.
  const search = buildSearch(db);
  // A listening server brings an index of an older format up to date, in the background (docs/search.md).
  refreshSearchOnListen(app, search.service);
  // Before the stories: the catalogue and the folders ask the stories what they use.
  const storyUsage = new StoryUsage(db, search.index);
  const catalogue = buildCatalogue(db, seams.catalogueUsage ?? storyUsage);
  const folders = buildFolders(db, { libraries, usage: storyUsage });
  const librarySettings = buildLibrarySettings(db, {
    folders,
    usage: storyUsage,
    audit: audit.log,
    changed: libraries,
    buckets: () => storage.targets,
  });
  const mediaUrls = new MediaUrlSigner(sharedKeys.mediaUrl, config.mediaUrls.ttlSeconds);
  // Field-level access: every answer loses the story properties the caller's role may not see.
  const propertyAccess = buildPropertyAccess(db, {
    roles: new RolesRepository(db),
    audit: audit.log,
    search: search.index,
    hidden: access.caches.hiddenProperties,
  });
  stripHiddenProperties(app, propertyAccess);
  // Automation: commits, publishes and added tags enqueue the rules' evaluation in their own transaction.
  const actionTriggers = buildActionTriggers(db, jobs);
  const stories = buildStories({
    db,
    events: actionTriggers,
    audit: audit.log,
    search,
    libraries,
    rolePermissions: (roleId) => access.roles.permissionSet(roleId),
    folders,
    users,
    blobs: blobs.store,
    blobRegistry: blobs.registry,
    jobs,
    keywordUse: catalogue.keywords,
    propertyDefinitions: catalogue.properties,
    propertyAccess,
    signMediaUrl: (claims) => mediaUrls.url(claims),
    outgoing,
    onBlobDeleteError,
    onKeywordUseError: (names, error) => app.log.warn({ keywords: names, err: error }, "keyword use not counted"),
  });
  storage.connect({
    libraries: {
      list: () => librarySettings.storageList(),
      get: (libraryId) => librarySettings.storageOf(libraryId),
      setBucket: (actor, libraryId, bucketId) => librarySettings.setBucket(actor, libraryId, bucketId),
    },
    blobs: stories.statistics,
    registry: blobs.registry,
    jobs,
  });
  const storyLinks = { access: stories.access, queries: stories.queries, libraries, actions: stories.actions };
  const favourites = buildFavourites(db, storyLinks);
  const relations = buildRelations(db, storyLinks);
  const settings = buildUserSettings(db, { libraries, folders, users });
  // The one way a file becomes a story: tus uploads, URL fetches, the image editor's save and share drops call it.
  const ingest = buildIngest({
    db,
    stories: stories.stories,
    defaultLibraryOf: async (user) =>
      (typeof user === "string" ? await settings.defaultLibraryFor(user) : await settings.defaultLibrary(user))
        .libraryId,
    newStoryRules: librarySettings,
    blobs: blobs.store,
    blobRegistry: blobs.registry,
    placement: storage.placement,
    quota: storage.quotas,
    workDir: path.join(config.dataDir, "tmp", "ingest"),
    onBlobDeleteError,
  });
  return {
    search,
    catalogue,
    folders,
    librarySettings,
    mediaUrls,
    propertyAccess,
    stories,
    storyLinks,
    favourites,
    relations,
    settings,
    ingest,
  };
}

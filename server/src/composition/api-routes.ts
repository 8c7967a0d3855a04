import type { FastifyPluginAsync } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { accessRoutes } from "../modules/access/access.routes.js";
import { currentUserRoutes } from "../modules/access/current-user.routes.js";
import { propertyAccessRoutes } from "../modules/access/property-access.routes.js";
import { apiTokensRoutes } from "../modules/api-tokens/api-tokens.routes.js";
import { auditRoutes } from "../modules/audit/audit.routes.js";
import { catalogueRoutes } from "../modules/catalogue/catalogue.routes.js";
import { channelsRoutes } from "../modules/channels/channels.routes.js";
import { embedRoutes } from "../modules/embed/embed.routes.js";
import { exportsRoutes } from "../modules/exports/exports.routes.js";
import { favouritesRoutes } from "../modules/favourites/favourites.routes.js";
import { foldersRoutes } from "../modules/folders/folders.routes.js";
import { librariesRoutes } from "../modules/libraries/libraries.routes.js";
import { librarySettingsRoutes } from "../modules/libraries/library-settings.routes.js";
import { mediaUploadsModule } from "../modules/media-uploads/media-uploads.compose.js";
import { mediaUrlsRoutes } from "../modules/media-urls/media-urls.routes.js";
import { menusRoutes } from "../modules/menus/menus.routes.js";
import { publishingRoutes } from "../modules/publishing/publishing.routes.js";
import { relationsRoutes } from "../modules/relations/relations.routes.js";
import { shareVisitsRoutes } from "../modules/shares/share-visits.routes.js";
import { sharesRoutes } from "../modules/shares/shares.routes.js";
import { storageRoutes } from "../modules/storage/storage.routes.js";
import { storiesRoutes } from "../modules/stories/stories.routes.js";
import { workflowRoutes } from "../modules/stories/workflow.routes.js";
import { systemRoutes } from "../modules/system/system.routes.js";
import { userSettingsRoutes } from "../modules/user-settings/user-settings.routes.js";
import { version } from "../version.js";
import type { FilesArea } from "./files.js";
import type { Foundation } from "./foundation.js";
import type { AutomationArea, MonitoringArea } from "./operations.js";
import type { SharingArea } from "./sharing.js";
import type { StoriesArea } from "./stories.js";

export interface Areas {
  foundation: Foundation;
  stories: StoriesArea;
  sharing: SharingArea;
  monitoring: MonitoringArea;
  files: FilesArea;
  automation: AutomationArea;
}

/**
 * Every route group under API_PREFIX, in the order they are mounted. The order is the order of the paths in
 * the OpenAPI document (server/openapi.json), so a new group goes at the end of its area's run, not anywhere.
 */
export function apiRoutes(areas: Areas): (FastifyPluginAsyncZod | FastifyPluginAsync)[] {
  const { config, menus, access, apiTokens, oidc, libraries, storage, jobs, audit, exportTables, blobs, media } =
    areas.foundation;
  const { stories, folders, librarySettings, propertyAccess, relations, mediaUrls, favourites, settings } =
    areas.stories;
  const { publishing, channels, shares, presets } = areas.sharing;
  const { usageCounter, monitor } = areas.monitoring;
  const { uploads, disk, urlIngestRoutes, videoEdit } = areas.files;
  const { storyBatch, actions, metadataTemplates } = areas.automation;
  return [
    systemRoutes({ name: "dams", version }),
    embedRoutes(config.embed.origins),
    menusRoutes(menus),
    currentUserRoutes(access.roles),
    accessRoutes(access),
    apiTokensRoutes(apiTokens),
    oidc.apiRoutes,
    librariesRoutes(libraries),
    librarySettingsRoutes(librarySettings),
    propertyAccessRoutes(propertyAccess),
    foldersRoutes(folders),
    storiesRoutes({ ...stories, usage: usageCounter.counter }),
    relationsRoutes(relations),
    mediaUrlsRoutes({ signer: mediaUrls, downloads: stories.downloads, queries: stories.queries }),
    workflowRoutes({ ...stories, libraries, folders, settings }),
    storyBatch.routes,
    favouritesRoutes(favourites),
    publishingRoutes(publishing.publishing, publishing.deliveries, publishing.events),
    channelsRoutes(channels),
    actions.routes,
    storageRoutes(storage),
    sharesRoutes(shares.service),
    shareVisitsRoutes(shares.visits, stories.downloads),
    userSettingsRoutes(settings),
    catalogueRoutes(areas.stories.catalogue, (user) => propertyAccess.lockedFor(user)),
    jobs.routes,
    monitor.routes,
    auditRoutes(audit.service),
    exportsRoutes(exportTables, audit.log),
    uploads.routes,
    disk.routes,
    urlIngestRoutes,
    videoEdit.routes,
    ...presets.routes,
    metadataTemplates.routes,
    mediaUploadsModule({
      stories,
      folders,
      blobs: blobs.store,
      blobRegistry: blobs.registry,
      ingest: areas.stories.ingest,
      jobs: jobs.queue,
      media,
      imageBodyLimit: config.imageBodyLimit,
    }),
  ];
}

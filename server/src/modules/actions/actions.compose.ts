import type { Db } from "../../db/database.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { ChannelsService } from "../channels/channels.service.js";
import { CredentialsCipher } from "../channels/credentials-cipher.js";
import type { JobEnqueuer, JobRegistrar } from "../jobs/job-types.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { MetadataTemplatesService } from "../metadata-templates/metadata-templates.service.js";
import type { DownloadPresetsService } from "../presets/download-presets.service.js";
import type { PublishingService } from "../publishing/publishing.service.js";
import type { StoriesModule } from "../stories/stories.compose.js";
import { AddressPolicy } from "../url-ingest/address-policy.js";
import type { UsersService } from "../users/users.service.js";
import { ActionRunner } from "./action-runner.js";
import { ActionTriggers } from "./action-triggers.js";
import { ActionsRepository } from "./actions.repository.js";
import { actionsRoutes } from "./actions.routes.js";
import { ActionsService } from "./actions.service.js";
import type { WebhookBackoff } from "./rule-steps.js";

/**
 * The stories' event sink (app.ts builds it before the stories): commit,
 * publish and added tags enqueue an evaluation job in their transaction.
 */
export function buildActionTriggers(db: Db, jobs: JobEnqueuer): ActionTriggers {
  return new ActionTriggers(new ActionsRepository(db), jobs);
}

/** Builds the actions module once (app.ts) and registers its two jobs' handlers. */
export function buildActions(
  db: Db,
  deps: {
    jobs: JobEnqueuer & JobRegistrar;
    audit: AuditLog;
    stories: StoriesModule;
    users: UsersService;
    libraries: LibrariesService;
    channels: ChannelsService;
    publishing: PublishingService;
    templates: MetadataTemplatesService;
    presets: DownloadPresetsService;
    /** The shared key channels seal credentials with; webhook secrets use it too. */
    secretsKey: Buffer;
    /** DAMS_CHANNEL_ALLOW_PRIVATE: private ranges a webhook may call. */
    allowPrivate: string[];
    /** The job queue's backoff (config.jobs): a webhook step waits as long between its attempts. */
    webhookBackoff: WebhookBackoff;
    log?: { warn(object: object, message: string): void };
  },
) {
  const rules = new ActionsRepository(db);
  const cipher = new CredentialsCipher(deps.secretsKey);
  const service = new ActionsService({
    rules,
    cipher,
    audit: deps.audit,
    references: {
      libraryExists: async (id) => (await deps.libraries.find(id)) !== undefined,
      channelExists: async (id) => (await deps.channels.options()).some((channel) => channel.id === id),
      templateExists: (id) => deps.templates.exists(id),
      presetStoryType: (id) => deps.presets.storyTypeOf(id),
    },
  });
  new ActionRunner({
    rules,
    jobs: deps.jobs,
    stories: deps.stories.queries,
    users: deps.users,
    log: deps.log,
    steps: {
      publish: (actor, libraryId, storyId, channelIds) =>
        deps.publishing.publish(actor, libraryId, storyId, { channels: channelIds }),
      applyTemplate: (actor, templateId, libraryId) => deps.templates.apply(actor, templateId, libraryId),
      editStory: (actor, story, patch) =>
        deps.stories.stories.edit(actor, story.type, story.libraryId, story.id, patch),
      requestRendition: (presetId, story) =>
        deps.presets.rendition(presetId, { libraryId: story.libraryId, storyId: story.id }),
      policy: new AddressPolicy(deps.allowPrivate),
      cipher,
      webhookBackoff: deps.webhookBackoff,
    },
  }).register(deps.jobs);
  return { service, routes: actionsRoutes(service) };
}

import type { CredentialsCipher } from "../channels/credentials-cipher.js";
import { HttpPushTransport } from "../channels/transports/http-push.js";
import type { TemplateValues } from "../metadata-templates/metadata-templates.schema.js";
import type { StoryEdit } from "../stories/stories.service.js";
import type { Actor, Story } from "../stories/story-types.js";
import type { AddressPolicy } from "../url-ingest/address-policy.js";
import type { StepResult, StoredStep, Trigger } from "./actions.schema.js";

/** What the steps use, each the owning module's service (app.ts passes them in). */
export interface StepServices {
  publish(actor: Actor, libraryId: string, storyId: string, channelIds: string[]): Promise<{ deliveries: unknown[] }>;
  applyTemplate(actor: Actor, templateId: string, libraryId: string): Promise<TemplateValues>;
  editStory(actor: Actor, story: Story, patch: StoryEdit): Promise<Story>;
  requestRendition(presetId: string, story: Story): Promise<{ state: string }>;
  /** The address policy of channels (DAMS_CHANNEL_ALLOW_PRIVATE): a webhook is a destination like any other. */
  policy: AddressPolicy;
  cipher: CredentialsCipher;
}

export interface StepContext {
  actor: Actor;
  story: Story;
  rule: { id: string; name: string };
  runId: string;
  trigger: Trigger;
  signal: AbortSignal;
  now: () => Date;
}

/** The header a webhook's signature travels in, as channels sign theirs. */
export const WEBHOOK_SIGNATURE_HEADER = "X-Dams-Signature";

const union = (held: readonly string[], added: readonly string[] | undefined) => {
  if (!added?.length) return undefined;
  const seen = new Set(held.map((value) => value.toLowerCase()));
  return [...held, ...added.filter((value) => !seen.has(value.toLowerCase()))];
};

/** A template's values as an edit of a story: text fields set, lists added to (keywords, tags, authors). */
export function templateEdit(story: Story, values: TemplateValues): StoryEdit {
  const patch: StoryEdit = {};
  if (values.title) patch.title = values.title;
  if (values.caption) patch.caption = values.caption;
  if (values.source) patch.source = values.source;
  if (values.theme) patch.theme = values.theme;
  if (values.category) patch.category = values.category;
  const keywords = union(story.keywords, values.keywords);
  if (keywords) patch.keywords = keywords;
  const tags = union(story.tags, values.tags);
  if (tags) patch.tags = tags;
  const authors = union(story.authors, values.authors);
  if (authors) patch.authors = authors;
  if (values.properties && Object.keys(values.properties).length > 0) patch.properties = values.properties;
  return patch;
}

/** The body a webhook receives. */
export function webhookBody(context: StepContext): Buffer {
  const { story } = context;
  return Buffer.from(
    JSON.stringify({
      event: context.trigger,
      rule: context.rule,
      run: context.runId,
      at: context.now().toISOString(),
      story: {
        id: story.id,
        libraryId: story.libraryId,
        type: story.type,
        status: story.status,
        versionNo: story.versionNo,
        title: story.title,
        caption: story.caption,
        authors: story.authors,
        keywords: story.keywords,
        tags: story.tags,
      },
    }),
  );
}

/** Runs one step; throws with the reason when it fails. Returns what it did. */
export async function runStep(step: StoredStep, context: StepContext, services: StepServices): Promise<string> {
  const { actor, story } = context;
  switch (step.kind) {
    case "publish": {
      const result = await services.publish(actor, story.libraryId, story.id, step.channelIds);
      return `published to ${step.channelIds.length} channel(s), ${result.deliveries.length} deliveries queued`;
    }
    case "template": {
      const values = await services.applyTemplate(actor, step.templateId, story.libraryId);
      const patch = templateEdit(story, values);
      const fields = Object.keys(patch);
      if (fields.length === 0) return "the template sets no field";
      const edited = await services.editStory(actor, story, patch);
      Object.assign(story, edited);
      return `template applied: ${fields.join(", ")}`;
    }
    case "rendition": {
      const state = await services.requestRendition(step.presetId, story);
      return `rendition ${state.state}`;
    }
    case "webhook": {
      const secret = step.sealedSecret ? services.cipher.decrypt(context.rule.id, step.sealedSecret).secret : undefined;
      const transport = new HttpPushTransport(
        { url: step.url, timeoutMs: step.timeoutMs, signatureHeader: WEBHOOK_SIGNATURE_HEADER, sendFiles: false },
        secret ? { secret } : {},
        services.policy,
      );
      await transport.deliver(
        {
          deliveryId: context.runId,
          action: "publish",
          baseName: story.id,
          files: [],
          item: { name: `${story.id}.json`, mime: "application/json", body: webhookBody(context) },
          title: story.title,
        },
        context.signal,
      );
      return `${new URL(step.url).host} accepted the call`;
    }
  }
}

/** A step's failure in words. */
export function stepFailure(step: StoredStep, error: unknown): StepResult {
  const message = error instanceof Error ? error.message : String(error);
  return { kind: step.kind, ok: false, detail: message.slice(0, 1000) };
}

import { setTimeout as sleep } from "node:timers/promises";
import type { CredentialsCipher } from "../channels/credentials-cipher.js";
import { HttpPushTransport } from "../channels/transports/http-push.js";
import { DeliveryError, type DeliveryPackage } from "../channels/transports/transport.js";
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
  /** The wait before a webhook's next attempt: the job queue's backoff (DAMS_JOBS_BACKOFF_MS, …_MAX_MS). */
  webhookBackoff: WebhookBackoff;
}

export interface WebhookBackoff {
  /** Before the second attempt; doubled for each one after. */
  baseMs: number;
  maxMs: number;
}

/** Attempts of one webhook call within its step: the first and up to three retries. */
export const WEBHOOK_ATTEMPTS = 4;
/** The longest wait between two attempts, whatever the backoff or the receiver's Retry-After says. */
export const WEBHOOK_MAX_DELAY_MS = 15_000;

/** The wait after failed attempt `attempt` (1-based): the backoff, or longer when the receiver asked for it, capped. */
export function webhookDelayMs(backoff: WebhookBackoff, attempt: number, retryAfterMs?: number): number {
  const exponential = Math.min(backoff.baseMs * 2 ** (attempt - 1), backoff.maxMs);
  return Math.min(Math.max(exponential, retryAfterMs ?? 0), WEBHOOK_MAX_DELAY_MS);
}

/** The shortest call worth making: with less time left in the run, a webhook is not called (again). */
export const WEBHOOK_MIN_CALL_MS = 500;

/**
 * How long the next webhook call may take: the step's timeout, cut to what is
 * left of the run's budget (`deadline`, ms since the epoch); null when less
 * than WEBHOOK_MIN_CALL_MS is left. Every call and wait of every step comes
 * out of the one budget, so a rule with several slow webhooks ends with a
 * reason before the run job's time limit stops it.
 */
export function webhookCallTimeoutMs(stepTimeoutMs: number, deadline: number, now: number): number | null {
  const left = deadline - now;
  return left < WEBHOOK_MIN_CALL_MS ? null : Math.min(stepTimeoutMs, left);
}

/** What a step did, and for a webhook how many calls it took. */
export interface StepOutcome {
  detail: string;
  attempts?: number;
}

/** A step that failed after `attempts` calls (webhooks); its message is the reason. */
export class StepFailed extends Error {
  constructor(
    message: string,
    readonly attempts: number,
  ) {
    super(message);
    this.name = "StepFailed";
  }
}

export interface StepContext {
  actor: Actor;
  story: Story;
  rule: { id: string; name: string };
  runId: string;
  trigger: Trigger;
  signal: AbortSignal;
  now: () => Date;
  /** When the run's time budget ends (ms since the epoch): webhook calls and waits fit before it. */
  deadline: number;
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
export async function runStep(step: StoredStep, context: StepContext, services: StepServices): Promise<StepOutcome> {
  const { actor, story } = context;
  switch (step.kind) {
    case "publish": {
      const result = await services.publish(actor, story.libraryId, story.id, step.channelIds);
      return {
        detail: `published to ${step.channelIds.length} channel(s), ${result.deliveries.length} deliveries queued`,
      };
    }
    case "template": {
      const values = await services.applyTemplate(actor, step.templateId, story.libraryId);
      const patch = templateEdit(story, values);
      const fields = Object.keys(patch);
      if (fields.length === 0) return { detail: "the template sets no field" };
      const edited = await services.editStory(actor, story, patch);
      Object.assign(story, edited);
      return { detail: `template applied: ${fields.join(", ")}` };
    }
    case "rendition": {
      const state = await services.requestRendition(step.presetId, story);
      return { detail: `rendition ${state.state}` };
    }
    case "webhook":
      return callWebhook(step, context, services);
  }
}

/**
 * A webhook step: the signed call, retried with backoff while a retry may
 * pass (no answer, a 5xx, 408 or 429; a 429/503's Retry-After is honoured up
 * to WEBHOOK_MAX_DELAY_MS), at most WEBHOOK_ATTEMPTS calls. Every attempt
 * sends the same body, signature and `X-Dams-Delivery` (the run id), so a
 * receiver that got an earlier one de-duplicates. Any other 4xx, or an
 * address the policy refuses, fails the step at once.
 */
async function callWebhook(
  step: Extract<StoredStep, { kind: "webhook" }>,
  context: StepContext,
  services: StepServices,
): Promise<StepOutcome> {
  const { story } = context;
  const secret = step.sealedSecret ? services.cipher.decrypt(context.rule.id, step.sealedSecret).secret : undefined;
  const transport = (timeoutMs: number) =>
    new HttpPushTransport(
      { url: step.url, timeoutMs, signatureHeader: WEBHOOK_SIGNATURE_HEADER, sendFiles: false },
      secret ? { secret } : {},
      services.policy,
    );
  const outOfTime = (attempt: number, before: string[]) =>
    new StepFailed(
      attempt === 1
        ? "not called: the run's time budget was used up by the steps before"
        : `gave up after ${attempt - 1} attempts: no time left in the run's budget for another (before: ${[...new Set(before)].join("; ")})`,
      attempt - 1,
    );
  const call: DeliveryPackage = {
    deliveryId: context.runId,
    action: "publish",
    baseName: story.id,
    files: [],
    item: { name: `${story.id}.json`, mime: "application/json", body: webhookBody(context) },
    title: story.title,
  };
  const failures: string[] = [];
  for (let attempt = 1; ; attempt++) {
    const timeoutMs = webhookCallTimeoutMs(step.timeoutMs, context.deadline, Date.now());
    if (timeoutMs === null) throw outOfTime(attempt, failures);
    try {
      await transport(timeoutMs).deliver(call, context.signal);
      const accepted = `${new URL(step.url).host} accepted the call`;
      return attempt === 1
        ? { detail: accepted, attempts: 1 }
        : { detail: `${accepted} on attempt ${attempt} (before: ${failures.join("; ")})`, attempts: attempt };
    } catch (error) {
      const reason = (error as Error).message;
      const retry = error instanceof DeliveryError && error.retry;
      if (!retry || attempt >= WEBHOOK_ATTEMPTS || context.signal.aborted) {
        const earlier = [...new Set(failures)].filter((one) => one !== reason);
        throw new StepFailed(
          attempt === 1
            ? reason
            : `${reason} (gave up after ${attempt} attempts${earlier.length ? `; before: ${earlier.join("; ")}` : ""})`,
          attempt,
        );
      }
      failures.push(reason);
      const delay = webhookDelayMs(services.webhookBackoff, attempt, (error as DeliveryError).retryAfterMs);
      if (webhookCallTimeoutMs(step.timeoutMs, context.deadline, Date.now() + delay) === null)
        throw outOfTime(attempt + 1, failures);
      await sleep(delay, undefined, { signal: context.signal });
    }
  }
}

/** A step's failure in words. */
export function stepFailure(step: StoredStep, error: unknown): StepResult {
  const message = error instanceof Error ? error.message : String(error);
  return {
    kind: step.kind,
    ok: false,
    detail: message.slice(0, 1000),
    ...(error instanceof StepFailed ? { attempts: error.attempts } : {}),
  };
}

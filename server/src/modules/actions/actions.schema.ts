import { z } from "zod";
import { pageQuery } from "../../http/envelope.js";

export const TRIGGERS = ["committed", "published", "tagged"] as const;
export type Trigger = (typeof TRIGGERS)[number];
export const RUN_STATES = ["queued", "running", "succeeded", "failed"] as const;
export type RunState = (typeof RUN_STATES)[number];

const name = z.string().trim().min(1).max(100);
const names = z.array(z.string().trim().min(1).max(100)).max(50);

/** Every condition is optional; those given must all hold (a list holds when any of its values does). */
export const ruleConditions = z
  .object({
    libraryIds: names.optional().describe("the story is in one of these libraries"),
    types: z
      .array(z.enum(["photo", "video", "audio", "composite"]))
      .max(4)
      .optional(),
    tags: names.optional().describe("the story has one of these tags (tagged: the change added one)"),
    keyword: z.string().trim().min(1).max(100).optional().describe("in the title, caption or keywords, any case"),
    authors: names.optional().describe("one of the story's authors"),
  })
  .meta({ id: "ActionRuleConditions" });
export type RuleConditions = z.infer<typeof ruleConditions>;

const publishStep = z.object({
  kind: z.literal("publish"),
  channelIds: z.array(z.uuid()).min(1).max(20),
});
const templateStep = z.object({ kind: z.literal("template"), templateId: z.uuid() });
const renditionStep = z.object({ kind: z.literal("rendition"), presetId: z.uuid() });
const webhookCommon = {
  kind: z.literal("webhook"),
  url: z
    .url({ protocol: /^https?$/, error: "an http or https URL" })
    .max(2000)
    .describe("POSTed a JSON body signed with HMAC-SHA256 (X-Dams-Signature: sha256=<hex>)"),
  timeoutMs: z.number().int().min(500).max(60_000).default(10_000),
};
/** A webhook as written: `secret` sets the HMAC key, null clears it, absent keeps the one the rule had for this URL. */
const webhookStepInput = z.object({
  ...webhookCommon,
  secret: z.string().min(8).max(200).nullable().optional().describe("write-only"),
});
const webhookStepView = z.object({ ...webhookCommon, secretSet: z.boolean() });

export const ruleStepInput = z.discriminatedUnion("kind", [publishStep, templateStep, renditionStep, webhookStepInput]);
export type RuleStepInput = z.infer<typeof ruleStepInput>;
export const ruleStepView = z
  .discriminatedUnion("kind", [publishStep, templateStep, renditionStep, webhookStepView])
  .meta({ id: "ActionRuleStep" });
export type RuleStepView = z.infer<typeof ruleStepView>;
/** A step as stored: a webhook's secret sealed with the shared key, bound to the rule. */
export type StoredStep =
  | z.infer<typeof publishStep>
  | z.infer<typeof templateStep>
  | z.infer<typeof renditionStep>
  | (Omit<z.infer<typeof webhookStepView>, "secretSet"> & { sealedSecret: string | null });

export const actionRuleBody = z.object({
  name,
  enabled: z.boolean().default(true),
  trigger: z.enum(TRIGGERS),
  conditions: ruleConditions.default({}),
  steps: z.array(ruleStepInput).min(1, "a rule has at least one step").max(10),
});
export type ActionRuleInput = z.infer<typeof actionRuleBody>;

export const actionRuleSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    enabled: z.boolean(),
    trigger: z.enum(TRIGGERS),
    conditions: ruleConditions,
    steps: z.array(ruleStepView),
    ownerId: z.string(),
    lastRun: z
      .object({ state: z.enum(RUN_STATES), createdAt: z.string() })
      .nullable()
      .describe("the newest run, if any"),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "ActionRule" });
export type ActionRuleView = z.infer<typeof actionRuleSchema>;

export const stepResult = z.object({
  kind: z.enum(["publish", "template", "rendition", "webhook"]),
  ok: z.boolean(),
  detail: z.string(),
  attempts: z.number().int().optional().describe("webhooks: how many calls the step made (retries included)"),
});
export type StepResult = z.infer<typeof stepResult>;

export const actionRunSchema = z
  .object({
    id: z.string(),
    ruleId: z.string(),
    trigger: z.enum(TRIGGERS),
    libraryId: z.string(),
    storyId: z.string(),
    storyTitle: z.string(),
    state: z.enum(RUN_STATES),
    steps: z.array(stepResult),
    error: z.string().nullable(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    durationMs: z.number().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "ActionRun" });
export type ActionRunView = z.infer<typeof actionRunSchema>;

export const ruleIdParams = z.object({ ruleId: z.uuid() });
export const ruleListQuery = pageQuery;
export const runListQuery = pageQuery.extend({ state: z.enum(RUN_STATES).optional() });
export const ruleEnabledBody = z.object({ enabled: z.boolean() });

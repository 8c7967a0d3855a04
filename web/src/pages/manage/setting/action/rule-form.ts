import type {
  ActionRule,
  ActionRuleConditions,
  ActionRuleInput,
  ActionRuleStepInput,
  ActionStepKind,
} from "../../../../api/actions";

/** One step as the form holds it: every kind's fields, the chosen kind's sent. */
export interface StepForm {
  kind?: ActionStepKind;
  channelIds?: string[];
  templateId?: string;
  presetId?: string;
  url?: string;
  secret?: string;
  timeoutMs?: number;
  /** Editing: whether the stored webhook has a secret (blank keeps it). */
  secretSet?: boolean;
}

export interface RuleForm extends Record<string, unknown> {
  name: string;
  enabled?: boolean;
  trigger?: ActionRule["trigger"];
  conditions?: ActionRuleConditions;
  steps?: StepForm[];
}

const nonEmpty = (list: string[] | undefined) => {
  const values = (list ?? []).map((value) => value.trim()).filter(Boolean);
  return values.length > 0 ? values : undefined;
};

/** The conditions left after dropping empty ones (an empty list or keyword is no condition). */
export function toConditions(conditions: ActionRuleConditions | undefined): ActionRuleConditions {
  const result: ActionRuleConditions = {};
  const libraryIds = nonEmpty(conditions?.libraryIds);
  if (libraryIds) result.libraryIds = libraryIds;
  if (conditions?.types?.length) result.types = conditions.types;
  const tags = nonEmpty(conditions?.tags);
  if (tags) result.tags = tags;
  const authors = nonEmpty(conditions?.authors);
  if (authors) result.authors = authors;
  const keyword = conditions?.keyword?.trim();
  if (keyword) result.keyword = keyword;
  return result;
}

/** A form step as the API takes it; a blank webhook secret keeps the stored one. */
export function toStepInput(step: StepForm): ActionRuleStepInput {
  switch (step.kind) {
    case "publish":
      return { kind: "publish", channelIds: step.channelIds ?? [] };
    case "template":
      return { kind: "template", templateId: step.templateId ?? "" };
    case "rendition":
      return { kind: "rendition", presetId: step.presetId ?? "" };
    default: {
      const secret = step.secret?.trim();
      return {
        kind: "webhook",
        url: (step.url ?? "").trim(),
        timeoutMs: step.timeoutMs ?? 10_000,
        ...(secret ? { secret } : {}),
      };
    }
  }
}

export function toRuleInput(form: RuleForm): ActionRuleInput {
  return {
    name: form.name.trim(),
    enabled: form.enabled ?? true,
    trigger: form.trigger ?? "committed",
    conditions: toConditions(form.conditions),
    steps: (form.steps ?? []).map(toStepInput),
  };
}

export function toRuleForm(rule: ActionRule): RuleForm {
  return {
    name: rule.name,
    enabled: rule.enabled,
    trigger: rule.trigger,
    conditions: rule.conditions,
    steps: rule.steps.map((step) => ({ ...step })),
  };
}

/** A one-line reading of the rule's conditions for the list, in the page's words. */
export function conditionsSummary(
  conditions: ActionRuleConditions,
  words: { library: (ids: string[]) => string; type: (type: string) => string },
): string {
  return [
    conditions.libraryIds?.length ? words.library(conditions.libraryIds) : null,
    conditions.types?.length ? conditions.types.map(words.type).join("/") : null,
    conditions.tags?.length ? conditions.tags.map((tag) => `#${tag}`).join(" ") : null,
    conditions.keyword ? `“${conditions.keyword}”` : null,
    conditions.authors?.length ? conditions.authors.join(", ") : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

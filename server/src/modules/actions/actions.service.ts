import { randomUUID } from "node:crypto";
import { Conflict, Invalid, NotFound } from "../../http/errors.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { CredentialsCipher } from "../channels/credentials-cipher.js";
import type { ActionsRepository, RuleRecord, RunRecord } from "./actions.repository.js";
import type {
  ActionRuleInput,
  ActionRuleView,
  ActionRunView,
  RuleStepView,
  RunState,
  StoredStep,
} from "./actions.schema.js";

/** What a rule may name, each asked of its owning module. */
export interface RuleReferences {
  libraryExists(id: string): Promise<boolean>;
  channelExists(id: string): Promise<boolean>;
  templateExists(id: string): Promise<boolean>;
  /** The story type a download preset renders, undefined when there is none. */
  presetStoryType(id: string): Promise<string | undefined>;
}

export interface ActionsDependencies {
  rules: ActionsRepository;
  references: RuleReferences;
  /** Seals webhook secrets with the key every node shares, bound to the rule. */
  cipher: CredentialsCipher;
  audit: AuditLog;
  clock?: () => Date;
}

function stepView(step: StoredStep): RuleStepView {
  if (step.kind !== "webhook") return step;
  const { sealedSecret, ...rest } = step;
  return { ...rest, secretSet: sealedSecret !== null };
}

/** A rule as the operation log shows it: no secret. */
function auditShape(rule: RuleRecord) {
  return {
    name: rule.name,
    enabled: rule.enabled,
    trigger: rule.trigger,
    conditions: rule.conditions,
    steps: rule.steps.map(stepView),
  };
}

function runView(run: RunRecord): ActionRunView {
  const { eventId: _event, jobId: _job, ...view } = run;
  return view;
}

/** Automation rules (/manage/setting/action): CRUD, enable/disable, their runs. */
export class ActionsService {
  constructor(private readonly deps: ActionsDependencies) {}

  #now(): string {
    return (this.deps.clock?.() ?? new Date()).toISOString();
  }

  async #views(rules: RuleRecord[]): Promise<ActionRuleView[]> {
    const last = await this.deps.rules.lastRuns(rules.map((rule) => rule.id));
    return rules.map((rule) => ({ ...rule, steps: rule.steps.map(stepView), lastRun: last.get(rule.id) ?? null }));
  }

  async list(query: { keyword?: string; page: number; size: number }) {
    const { rules, total } = await this.deps.rules.listRules(query);
    return { content: await this.#views(rules), total };
  }

  async get(id: string): Promise<ActionRuleView> {
    const [view] = await this.#views([await this.#require(id)]);
    return view!;
  }

  async #require(id: string): Promise<RuleRecord> {
    const rule = await this.deps.rules.findRule(id);
    if (!rule) throw new NotFound(`ruleId: no action rule ${id}`, "rule_not_found");
    return rule;
  }

  /** Every library, channel, template and preset the rule names exists; a preset renders one of the rule's types. */
  async #check(input: ActionRuleInput): Promise<void> {
    const { references } = this.deps;
    for (const [index, libraryId] of (input.conditions.libraryIds ?? []).entries()) {
      if (!(await references.libraryExists(libraryId))) {
        throw new Invalid(`conditions.libraryIds.${index}: no library ${libraryId}`, "unknown_reference");
      }
    }
    for (const [index, step] of input.steps.entries()) {
      const at = `steps.${index}`;
      switch (step.kind) {
        case "publish":
          for (const [position, channelId] of step.channelIds.entries()) {
            if (!(await references.channelExists(channelId))) {
              throw new Invalid(`${at}.channelIds.${position}: no channel ${channelId}`, "unknown_reference");
            }
          }
          break;
        case "template":
          if (!(await references.templateExists(step.templateId))) {
            throw new Invalid(`${at}.templateId: no metadata template ${step.templateId}`, "unknown_reference");
          }
          break;
        case "rendition": {
          const type = await references.presetStoryType(step.presetId);
          if (type === undefined) {
            throw new Invalid(`${at}.presetId: no download preset ${step.presetId}`, "unknown_reference");
          }
          const types = input.conditions.types;
          if (types?.length && !types.includes(type as never)) {
            throw new Invalid(
              `${at}.presetId: the preset makes ${type} renditions, the rule matches ${types.join(", ")}`,
              "preset_type",
            );
          }
          break;
        }
        case "webhook":
          break;
      }
    }
  }

  /** The steps as stored: webhook secrets sealed; an absent secret keeps the one `before` had for the same URL. */
  #store(ruleId: string, input: ActionRuleInput, before?: RuleRecord): StoredStep[] {
    return input.steps.map((step) => {
      if (step.kind !== "webhook") return step;
      const { secret, ...rest } = step;
      let sealedSecret: string | null = null;
      if (secret) sealedSecret = this.deps.cipher.encrypt(ruleId, { secret });
      else if (secret === undefined) {
        const same = before?.steps.find((old) => old.kind === "webhook" && old.url === step.url);
        sealedSecret = same?.kind === "webhook" ? same.sealedSecret : null;
      }
      return { ...rest, sealedSecret };
    });
  }

  #taken(name: string): Conflict {
    return new Conflict(`name: an action rule "${name}" exists`, "duplicate_name").withMessageCode(
      "presets.duplicateName",
      { name },
    );
  }

  async create(actor: Actor, input: ActionRuleInput): Promise<ActionRuleView> {
    await this.#check(input);
    const now = this.#now();
    const id = randomUUID();
    const rule: RuleRecord = {
      id,
      name: input.name,
      enabled: input.enabled,
      trigger: input.trigger,
      conditions: input.conditions,
      steps: this.#store(id, input),
      ownerId: actor.id,
      createdAt: now,
      updatedAt: now,
    };
    await this.deps.rules.transaction(async (trx, rules) => {
      if (await rules.ruleNamed(input.name)) throw this.#taken(input.name);
      await rules.insertRule(rule);
      await this.deps.audit.record(trx, actor, {
        action: "action-rule.create",
        target: { type: "action-rule", id, label: rule.name },
        after: auditShape(rule),
      });
    });
    return this.get(id);
  }

  /** An edit; the editor becomes the account the rule acts as. */
  async update(actor: Actor, id: string, input: ActionRuleInput): Promise<ActionRuleView> {
    await this.#check(input);
    await this.deps.rules.transaction(async (trx, rules) => {
      const before = await rules.findRule(id);
      if (!before) throw new NotFound(`ruleId: no action rule ${id}`, "rule_not_found");
      const named = await rules.ruleNamed(input.name);
      if (named && named.id !== id) throw this.#taken(input.name);
      const rule: RuleRecord = {
        ...before,
        name: input.name,
        enabled: input.enabled,
        trigger: input.trigger,
        conditions: input.conditions,
        steps: this.#store(id, input, before),
        ownerId: actor.id,
        updatedAt: this.#now(),
      };
      await rules.updateRule(rule);
      await this.deps.audit.record(trx, actor, {
        action: "action-rule.edit",
        target: { type: "action-rule", id, label: rule.name },
        before: auditShape(before),
        after: auditShape(rule),
      });
    });
    return this.get(id);
  }

  async setEnabled(actor: Actor, id: string, enabled: boolean): Promise<ActionRuleView> {
    await this.deps.rules.transaction(async (trx, rules) => {
      const before = await rules.findRule(id);
      if (!before) throw new NotFound(`ruleId: no action rule ${id}`, "rule_not_found");
      await rules.updateRule({ ...before, enabled, updatedAt: this.#now() });
      await this.deps.audit.record(trx, actor, {
        action: enabled ? "action-rule.enable" : "action-rule.disable",
        target: { type: "action-rule", id, label: before.name },
        before: { enabled: before.enabled },
        after: { enabled },
      });
    });
    return this.get(id);
  }

  /** Deletes the rule and its runs (a run already queued finds no rule and records nothing more). */
  async remove(actor: Actor, id: string): Promise<void> {
    await this.deps.rules.transaction(async (trx, rules) => {
      const rule = await rules.findRule(id);
      if (!rule) throw new NotFound(`ruleId: no action rule ${id}`, "rule_not_found");
      await rules.deleteRule(id);
      await this.deps.audit.record(trx, actor, {
        action: "action-rule.delete",
        target: { type: "action-rule", id, label: rule.name },
        before: auditShape(rule),
      });
    });
  }

  async runs(id: string, query: { state?: RunState; page: number; size: number }) {
    await this.#require(id);
    const { runs, total } = await this.deps.rules.listRuns(id, query);
    return { content: runs.map(runView), total };
  }
}

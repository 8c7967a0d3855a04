import type { Kysely, Selectable } from "kysely";
import type { Db } from "../../db/database.js";
import { type NamedRowsQuery, pageByName } from "../../db/named-rows.js";
import type { ActionRulesTable, ActionRunsTable, Database } from "../../db/schema.js";
import type { RuleConditions, RunState, StepResult, StoredStep, Trigger } from "./actions.schema.js";

export interface RuleRecord {
  id: string;
  name: string;
  enabled: boolean;
  trigger: Trigger;
  conditions: RuleConditions;
  steps: StoredStep[];
  ownerId: string;
  createdAt: string;
  updatedAt: string;
}

export interface RunRecord {
  id: string;
  ruleId: string;
  eventId: string;
  trigger: Trigger;
  libraryId: string;
  storyId: string;
  storyTitle: string;
  state: RunState;
  steps: StepResult[];
  error: string | null;
  jobId: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  createdAt: string;
}

/** SQL of the actions module: action_rules and action_runs. */
export class ActionsRepository {
  constructor(
    private readonly db: Db,
    private readonly kysely: Kysely<Database> = db.kysely,
  ) {}

  with(trx: Kysely<Database>): ActionsRepository {
    return new ActionsRepository(this.db, trx);
  }

  transaction<T>(work: (trx: Kysely<Database>, repository: ActionsRepository) => Promise<T>): Promise<T> {
    return this.kysely.transaction().execute((trx) => work(trx, this.with(trx)));
  }

  #rule(row: Selectable<ActionRulesTable>): RuleRecord {
    const { adapter } = this.db;
    return {
      id: row.id,
      name: row.name,
      enabled: adapter.readBoolean(row.enabled),
      trigger: row.trigger as Trigger,
      conditions: adapter.readJson<RuleConditions>(row.conditions),
      steps: adapter.readJson<StoredStep[]>(row.steps),
      ownerId: row.owner_id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  #ruleRow(rule: RuleRecord): ActionRulesTable {
    return {
      id: rule.id,
      name: rule.name,
      enabled: rule.enabled,
      trigger: rule.trigger,
      conditions: this.db.adapter.writeJson(rule.conditions),
      steps: this.db.adapter.writeJson(rule.steps),
      owner_id: rule.ownerId,
      created_at: rule.createdAt,
      updated_at: rule.updatedAt,
    };
  }

  async listRules(query: NamedRowsQuery) {
    const { rows, total } = await pageByName(this.kysely.selectFrom("action_rules"), query);
    return { rules: rows.map((row) => this.#rule(row)), total };
  }

  async findRule(id: string): Promise<RuleRecord | undefined> {
    const row = await this.kysely.selectFrom("action_rules").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.#rule(row) : undefined;
  }

  async ruleNamed(name: string): Promise<{ id: string } | undefined> {
    return this.kysely.selectFrom("action_rules").select("id").where("name", "=", name).executeTakeFirst();
  }

  /** The enabled rules of a trigger. */
  async enabledRules(trigger: Trigger): Promise<RuleRecord[]> {
    const rows = await this.kysely
      .selectFrom("action_rules")
      .selectAll()
      .where("trigger", "=", trigger)
      .where("enabled", "=", true)
      .orderBy("name")
      .execute();
    return rows.map((row) => this.#rule(row));
  }

  async anyEnabled(trigger: Trigger): Promise<boolean> {
    const row = await this.kysely
      .selectFrom("action_rules")
      .select("id")
      .where("trigger", "=", trigger)
      .where("enabled", "=", true)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insertRule(rule: RuleRecord): Promise<void> {
    await this.kysely.insertInto("action_rules").values(this.#ruleRow(rule)).execute();
  }

  async updateRule(rule: RuleRecord): Promise<void> {
    const { id, created_at: _, ...rest } = this.#ruleRow(rule);
    await this.kysely.updateTable("action_rules").set(rest).where("id", "=", id).execute();
  }

  async deleteRule(id: string): Promise<void> {
    await this.kysely.deleteFrom("action_runs").where("rule_id", "=", id).execute();
    await this.kysely.deleteFrom("action_rules").where("id", "=", id).execute();
  }

  #run(row: Selectable<ActionRunsTable>): RunRecord {
    return {
      id: row.id,
      ruleId: row.rule_id,
      eventId: row.event_id,
      trigger: row.trigger as Trigger,
      libraryId: row.library_id,
      storyId: row.story_id,
      storyTitle: row.story_title,
      state: row.state as RunState,
      steps: this.db.adapter.readJson<StepResult[]>(row.step_results),
      error: row.error,
      jobId: row.job_id,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
      createdAt: row.created_at,
    };
  }

  /** Inserts the run unless the rule already has one for the event; true when inserted. */
  async insertRun(run: RunRecord): Promise<boolean> {
    const existing = await this.kysely
      .selectFrom("action_runs")
      .select("id")
      .where("rule_id", "=", run.ruleId)
      .where("event_id", "=", run.eventId)
      .executeTakeFirst();
    if (existing) return false;
    await this.kysely
      .insertInto("action_runs")
      .values({
        id: run.id,
        rule_id: run.ruleId,
        event_id: run.eventId,
        trigger: run.trigger,
        library_id: run.libraryId,
        story_id: run.storyId,
        story_title: run.storyTitle,
        state: run.state,
        step_results: this.db.adapter.writeJson(run.steps),
        error: run.error,
        job_id: run.jobId,
        started_at: run.startedAt,
        finished_at: run.finishedAt,
        duration_ms: run.durationMs,
        created_at: run.createdAt,
      })
      .execute();
    return true;
  }

  async setRunJob(runId: string, jobId: string): Promise<void> {
    await this.kysely.updateTable("action_runs").set({ job_id: jobId }).where("id", "=", runId).execute();
  }

  async findRun(id: string): Promise<RunRecord | undefined> {
    const row = await this.kysely.selectFrom("action_runs").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? this.#run(row) : undefined;
  }

  async startRun(id: string, at: string): Promise<void> {
    await this.kysely
      .updateTable("action_runs")
      .set({ state: "running", started_at: at, step_results: this.db.adapter.writeJson([]), error: null })
      .where("id", "=", id)
      .execute();
  }

  async finishRun(
    id: string,
    outcome: { state: RunState; steps: StepResult[]; error: string | null; finishedAt: string; durationMs: number },
  ): Promise<void> {
    await this.kysely
      .updateTable("action_runs")
      .set({
        state: outcome.state,
        step_results: this.db.adapter.writeJson(outcome.steps),
        error: outcome.error,
        finished_at: outcome.finishedAt,
        duration_ms: outcome.durationMs,
      })
      .where("id", "=", id)
      .execute();
  }

  async listRuns(ruleId: string, query: { state?: RunState; page: number; size: number }) {
    let base = this.kysely.selectFrom("action_runs").where("rule_id", "=", ruleId);
    if (query.state) base = base.where("state", "=", query.state);
    const { count } = await base.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll()
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(query.size)
      .offset(query.page * query.size)
      .execute();
    return { runs: rows.map((row) => this.#run(row)), total: Number(count) };
  }

  /** The newest run of each rule given. */
  async lastRuns(ruleIds: string[]): Promise<Map<string, { state: RunState; createdAt: string }>> {
    const result = new Map<string, { state: RunState; createdAt: string }>();
    if (ruleIds.length === 0) return result;
    const rows = await this.kysely
      .selectFrom("action_runs as run")
      .select(["run.rule_id", "run.state", "run.created_at"])
      .where("run.rule_id", "in", ruleIds)
      .where((eb) =>
        eb(
          "run.created_at",
          "=",
          eb
            .selectFrom("action_runs as newer")
            .select((inner) => inner.fn.max("newer.created_at").as("newest"))
            .whereRef("newer.rule_id", "=", "run.rule_id"),
        ),
      )
      .execute();
    for (const row of rows) result.set(row.rule_id, { state: row.state as RunState, createdAt: row.created_at });
    return result;
  }
}

/** Automation rules (/manage/setting/action): types, calls, query keys and hooks. */
import { useQuery } from "@tanstack/react-query";
import { api, call } from "./client";
import type { ListQuery, Page } from "./paging";
import { restCalls } from "./resource";
import type { components } from "./schema";

export type ActionRule = components["schemas"]["ActionRule"];
export type ActionRuleStep = components["schemas"]["ActionRuleStep"];
export type ActionRuleConditions = components["schemas"]["ActionRuleConditions"];
export type ActionRun = components["schemas"]["ActionRun"];
export type ActionTrigger = ActionRule["trigger"];
export type ActionStepKind = ActionRuleStep["kind"];
/** A step as written: a webhook's secret is write-only (absent keeps it, null clears it). */
export type ActionRuleStepInput =
  | Exclude<ActionRuleStep, { kind: "webhook" }>
  | { kind: "webhook"; url: string; timeoutMs?: number; secret?: string | null };
export interface ActionRuleInput {
  name: string;
  enabled: boolean;
  trigger: ActionTrigger;
  conditions: ActionRuleConditions;
  steps: ActionRuleStepInput[];
}

export const TRIGGERS: ActionTrigger[] = ["committed", "published", "tagged"];
export const STEP_KINDS: ActionStepKind[] = ["template", "publish", "rendition", "webhook"];

export const actionKeys = {
  all: ["action-rules"] as const,
  runs: (ruleId: string, page: number) => [...actionKeys.all, "runs", ruleId, page] as const,
  downloadPresets: () => ["download-presets", "all"] as const,
};

const byId = (ruleId: string) => ({ params: { path: { ruleId } } });

export const actionRuleCalls = restCalls("/dams/api/v1/action-rules", "/dams/api/v1/action-rules/{ruleId}", {
  remove: {},
});
export const enableActionRule = (ruleId: string): Promise<ActionRule> =>
  call(api.POST("/dams/api/v1/action-rules/{ruleId}/enable", byId(ruleId)));
export const disableActionRule = (ruleId: string): Promise<ActionRule> =>
  call(api.POST("/dams/api/v1/action-rules/{ruleId}/disable", byId(ruleId)));
export const listActionRuns = (ruleId: string, query: ListQuery): Promise<Page<ActionRun>> =>
  call(api.GET("/dams/api/v1/action-rules/{ruleId}/runs", { params: { path: { ruleId }, query } }));

/** A rule's runs, newest first, asked again every 3 s while the drawer is open. */
export const useActionRuns = (ruleId: string | undefined, page: number, size: number) =>
  useQuery({
    queryKey: actionKeys.runs(ruleId ?? "", page),
    queryFn: () => listActionRuns(ruleId!, { page, size }),
    enabled: ruleId !== undefined,
    refetchInterval: 3000,
  });

/** The channels a publish step may name. */
export { useChannelOptions } from "./channels";

/** Every download preset, for a rendition step. */
export const useAllDownloadPresets = () =>
  useQuery({
    queryKey: actionKeys.downloadPresets(),
    queryFn: async () =>
      (await call(api.GET("/dams/api/v1/download-presets", { params: { query: { page: 0, size: 1000 } } }))).content,
  });

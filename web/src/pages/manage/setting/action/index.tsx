import type { ProColumns } from "@ant-design/pro-components";
import { Button, Switch } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type ActionRule, actionRuleCalls, disableActionRule, enableActionRule } from "../../../../api/actions";
import { libraryName, useLibraries } from "../../../../api/libraries";
import { Access } from "../../../../auth/access-component";
import { ResourceTable } from "../../../../components/crud-table/resource-table";
import { RuleFields } from "./components/rule-fields";
import { RunState, RunsDrawer } from "./components/runs-drawer";
import { conditionsSummary, type RuleForm, toRuleForm, toRuleInput } from "./rule-form";

/** The route key of this screen: the permissionId its buttons check. */
const PERMISSION = "manage.setting.action";

/** /manage/setting/action: automation rules — when a story is committed, published or tagged, do the steps. */
export default function ManageSettingActionPage() {
  const { t } = useTranslation();
  const libraries = useLibraries();
  const [runsOf, setRunsOf] = useState<ActionRule | null>(null);
  const columns: ProColumns<ActionRule>[] = [
    { title: t("catalogue.name"), dataIndex: "name" },
    {
      title: t("actions.trigger"),
      dataIndex: "trigger",
      render: (_, rule) => t(`actions.trigger.${rule.trigger}`),
    },
    {
      title: t("actions.conditions"),
      key: "conditions",
      ellipsis: true,
      responsive: ["md"],
      render: (_, rule) =>
        conditionsSummary(rule.conditions, {
          library: (ids) => ids.map((id) => libraryName(libraries.data, id)).join(", "),
          type: (type) => t(`libraryAdmin.storyType.${type}`),
        }) || t("actions.conditions.any"),
    },
    {
      title: t("actions.steps"),
      key: "steps",
      responsive: ["lg"],
      render: (_, rule) => rule.steps.map((step) => t(`actions.step.kind.${step.kind}`)).join(" → "),
    },
    {
      title: t("actions.lastRun"),
      key: "lastRun",
      responsive: ["md"],
      render: (_, rule) => (rule.lastRun ? <RunState state={rule.lastRun.state} /> : "—"),
    },
  ];
  return (
    <>
      <ResourceTable<ActionRule, RuleForm, ReturnType<typeof toRuleInput>>
        permission={PERMISSION}
        titleKey="actions.title"
        columns={columns}
        calls={actionRuleCalls}
        toInput={toRuleInput}
        toFormValues={toRuleForm}
        newValues={{ enabled: true, trigger: "committed", steps: [{ kind: "template" }] }}
        formFields={() => <RuleFields t={t} />}
        rowActions={(rule, reload) => [
          <Access key="enabled" action={`${PERMISSION}.${rule.enabled ? "disable" : "enable"}`}>
            <Switch
              size="small"
              checked={rule.enabled}
              aria-label={t(rule.enabled ? "actions.disable" : "actions.enable")}
              title={t(rule.enabled ? "actions.disable" : "actions.enable")}
              onChange={async (enabled) => {
                await (enabled ? enableActionRule(rule.id) : disableActionRule(rule.id));
                await reload();
              }}
            />
          </Access>,
          <Button key="runs" type="link" size="small" onClick={() => setRunsOf(rule)}>
            {t("actions.runs")}
          </Button>,
        ]}
      />
      <RunsDrawer rule={runsOf} onClose={() => setRunsOf(null)} />
    </>
  );
}

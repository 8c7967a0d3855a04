import { Descriptions, Drawer, Empty, List, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type ActionRule, type ActionRun, useActionRuns } from "../../../../../api/actions";
import { pagerWhenMany } from "../../../../../components/pager";

const STATE_COLOR: Record<ActionRun["state"], string> = {
  queued: "default",
  running: "processing",
  succeeded: "success",
  failed: "error",
};

export function RunState({ state }: { state: ActionRun["state"] }) {
  const { t } = useTranslation();
  return <Tag color={STATE_COLOR[state]}>{t(`actions.run.state.${state}`)}</Tag>;
}

const PAGE_SIZE = 20;

/** A rule's runs, newest first: state, story, each step's outcome, the error and the duration. */
export function RunsDrawer({ rule, onClose }: { rule: ActionRule | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const runs = useActionRuns(rule?.id, page, PAGE_SIZE);
  return (
    <Drawer
      open={rule !== null}
      onClose={onClose}
      title={t("actions.runs.title", { name: rule?.name ?? "" })}
      width="min(720px, 100vw)"
      destroyOnHidden
    >
      <List<ActionRun>
        loading={runs.isLoading}
        dataSource={runs.data?.content ?? []}
        locale={{ emptyText: <Empty description={t("actions.runs.empty")} /> }}
        pagination={pagerWhenMany(runs.data?.totalElements, page, PAGE_SIZE, setPage)}
        renderItem={(run) => (
          <List.Item key={run.id} data-testid="action-run">
            <Descriptions
              size="small"
              column={1}
              title={
                <>
                  <RunState state={run.state} /> {run.storyTitle || run.storyId}
                </>
              }
              items={[
                { key: "trigger", label: t("actions.trigger"), children: t(`actions.trigger.${run.trigger}`) },
                { key: "at", label: t("actions.runs.at"), children: new Date(run.createdAt).toLocaleString() },
                {
                  key: "duration",
                  label: t("actions.runs.duration"),
                  children: run.durationMs === null ? "—" : t("actions.runs.ms", { ms: run.durationMs }),
                },
                ...run.steps.map((step, index) => ({
                  key: `step-${index}`,
                  label: `${index + 1}. ${t(`actions.step.kind.${step.kind}`)}`,
                  children: (
                    <Typography.Text type={step.ok ? undefined : "danger"} style={{ wordBreak: "break-word" }}>
                      {step.detail}
                      {step.attempts !== undefined && step.attempts > 1 ? (
                        <Typography.Text type="secondary" data-testid="step-attempts">
                          {" · "}
                          {t("actions.runs.attempts", { n: step.attempts })}
                        </Typography.Text>
                      ) : null}
                    </Typography.Text>
                  ),
                })),
                ...(run.error
                  ? [
                      {
                        key: "error",
                        label: t("actions.runs.error"),
                        children: (
                          <Typography.Text type="danger" style={{ wordBreak: "break-word" }}>
                            {run.error}
                          </Typography.Text>
                        ),
                      },
                    ]
                  : []),
              ]}
            />
          </List.Item>
        )}
      />
    </Drawer>
  );
}

import { Alert, Button, DatePicker, Form, Input, Select, Space, Table, Tag } from "antd";
import type { Dayjs } from "dayjs";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { type AuditFilter, type AuditRecord, useAuditLog } from "../../../../api/audit";
import { exportTable } from "../../../../api/exports";
import "../../../../locales/audit-log";
import { LogDetail } from "./components/log-detail";

interface FilterForm {
  actor?: string;
  action?: string;
  target?: string;
  result?: AuditFilter["result"];
  dates?: [Dayjs | null, Dayjs | null] | null;
}

const RESULT_COLORS = { ok: "green", denied: "orange", failed: "red" } as const;
const ACTIONS = [
  "story.delete",
  "story.edit",
  "story.create",
  "story.commit",
  "story.download",
  "signin.success",
  "signin.failure",
  "export.table",
  "http.post",
  "http.put",
  "http.delete",
];

function toFilter(form: FilterForm): AuditFilter {
  const text = (value?: string) => (value?.trim() ? value.trim() : undefined);
  const [from, to] = form.dates ?? [];
  return {
    actor: text(form.actor),
    action: text(form.action),
    target: text(form.target),
    result: form.result,
    from: from ? from.startOf("day").toISOString() : undefined,
    to: to ? to.add(1, "day").startOf("day").toISOString() : undefined,
  };
}

/** The operation log (/manage/setting/log): filters, newest first with "load more", a row's detail, export. */
export default function ManageSettingLogPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<FilterForm>();
  const [filter, setFilter] = useState<AuditFilter>({});
  const [open, setOpen] = useState<AuditRecord | null>(null);
  const [exporting, setExporting] = useState<"xlsx" | "csv" | null>(null);
  const log = useAuditLog(filter);
  const rows = useMemo(() => log.data?.pages.flatMap((page) => page.content) ?? [], [log.data]);

  const columns = [
    {
      key: "at",
      title: t("auditLog.column.at"),
      width: 170,
      render: (_: unknown, r: AuditRecord) => new Date(r.at).toLocaleString(),
    },
    {
      key: "actorName",
      title: t("auditLog.column.actor"),
      render: (_: unknown, r: AuditRecord) => r.actorName ?? t("auditLog.system"),
    },
    {
      key: "ip",
      title: t("auditLog.column.ip"),
      responsive: ["md" as const],
      render: (_: unknown, r: AuditRecord) => r.ip,
    },
    { key: "action", title: t("auditLog.column.action"), render: (_: unknown, r: AuditRecord) => r.action },
    {
      key: "targetType",
      title: t("auditLog.column.targetType"),
      responsive: ["lg" as const],
      render: (_: unknown, r: AuditRecord) => r.targetType,
    },
    {
      key: "targetLabel",
      title: t("auditLog.column.target"),
      ellipsis: true,
      render: (_: unknown, r: AuditRecord) => r.targetLabel ?? r.targetId,
    },
    {
      key: "result",
      title: t("auditLog.column.result"),
      render: (_: unknown, r: AuditRecord) => (
        <Tag color={RESULT_COLORS[r.result]}>{t(`auditLog.result.${r.result}`)}</Tag>
      ),
    },
  ];

  async function runExport(format: "xlsx" | "csv") {
    setExporting(format);
    try {
      await exportTable({
        table: "log",
        format,
        filter,
        columns: columns.map((column) => ({ key: column.key, title: column.title })),
        fileName: t("menu.manage.setting.log"),
      });
    } catch {
      // The client reported the failure.
    } finally {
      setExporting(null);
    }
  }

  return (
    <div style={{ display: "flex", flexDirection: "column", gap: 16 }}>
      <Form form={form} layout="inline" onFinish={(values) => setFilter(toFilter(values))} style={{ rowGap: 8 }}>
        <Form.Item name="actor" label={t("auditLog.filter.actor")}>
          <Input allowClear style={{ width: 140 }} data-testid="log-filter-actor" />
        </Form.Item>
        <Form.Item name="action" label={t("auditLog.filter.action")}>
          <Select
            allowClear
            showSearch
            style={{ width: 170 }}
            options={ACTIONS.map((value) => ({ value, label: value }))}
            data-testid="log-filter-action"
          />
        </Form.Item>
        <Form.Item name="target" label={t("auditLog.filter.target")}>
          <Input allowClear style={{ width: 180 }} data-testid="log-filter-target" />
        </Form.Item>
        <Form.Item name="result" label={t("auditLog.filter.result")}>
          <Select
            allowClear
            style={{ width: 110 }}
            options={(["ok", "denied", "failed"] as const).map((value) => ({
              value,
              label: t(`auditLog.result.${value}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="dates" label={t("auditLog.filter.dates")}>
          <DatePicker.RangePicker style={{ maxWidth: "100%" }} />
        </Form.Item>
        <Space wrap>
          <Button type="primary" htmlType="submit" data-testid="log-search">
            {t("auditLog.search")}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              setFilter({});
            }}
          >
            {t("auditLog.reset")}
          </Button>
          <Button onClick={() => runExport("xlsx")} loading={exporting === "xlsx"} data-testid="log-export">
            {t("auditLog.export")}
          </Button>
          <Button onClick={() => runExport("csv")} loading={exporting === "csv"}>
            {t("auditLog.exportCsv")}
          </Button>
        </Space>
      </Form>
      {log.isError ? <Alert type="error" message={String(log.error)} /> : null}
      <Table<AuditRecord>
        rowKey="id"
        size="small"
        loading={log.isFetching && !log.isFetchingNextPage}
        dataSource={rows}
        columns={columns}
        pagination={false}
        scroll={{ x: "max-content" }}
        onRow={(record) => ({ onClick: () => setOpen(record), style: { cursor: "pointer" } })}
        data-testid="log-table"
      />
      {log.hasNextPage ? (
        <Button onClick={() => log.fetchNextPage()} loading={log.isFetchingNextPage} style={{ alignSelf: "center" }}>
          {t("auditLog.more")}
        </Button>
      ) : null}
      <LogDetail record={open} onClose={() => setOpen(null)} />
    </div>
  );
}

import { Descriptions, Drawer, Table, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { AuditRecord } from "../../../../../api/audit";

const show = (value: unknown) =>
  value === undefined || value === null ? "—" : typeof value === "string" ? value : JSON.stringify(value);

/** One log row: who, when, from where, and for an edit every changed field before and after. */
export function LogDetail({ record, onClose }: { record: AuditRecord | null; onClose: () => void }) {
  const { t } = useTranslation();
  const before = record?.before ?? {};
  const after = record?.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return (
    <Drawer open={record !== null} onClose={onClose} title={t("auditLog.detail")} width="min(720px, 100vw)">
      {record ? (
        <>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t("auditLog.column.at")}>
              {new Date(record.at).toLocaleString()}
            </Descriptions.Item>
            <Descriptions.Item label={t("auditLog.column.actor")}>
              {record.actorName ?? t("auditLog.system")}
            </Descriptions.Item>
            <Descriptions.Item label={t("auditLog.column.ip")}>{show(record.ip)}</Descriptions.Item>
            <Descriptions.Item label={t("auditLog.column.userAgent")}>{show(record.userAgent)}</Descriptions.Item>
            <Descriptions.Item label={t("auditLog.column.action")}>{record.action}</Descriptions.Item>
            <Descriptions.Item label={t("auditLog.column.target")}>
              {record.targetType} · {show(record.targetLabel)} ·{" "}
              <Typography.Text code>{show(record.targetId)}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t("auditLog.column.result")}>
              {t(`auditLog.result.${record.result}`)}
            </Descriptions.Item>
            {record.details ? (
              <Descriptions.Item label={t("auditLog.detail.details")}>
                <Typography.Text code style={{ wordBreak: "break-all" }}>
                  {JSON.stringify(record.details)}
                </Typography.Text>
              </Descriptions.Item>
            ) : null}
          </Descriptions>
          {fields.length > 0 ? (
            <Table
              style={{ marginTop: 16 }}
              size="small"
              rowKey="field"
              pagination={false}
              data-testid="log-diff"
              dataSource={fields.map((field) => ({ field, before: show(before[field]), after: show(after[field]) }))}
              columns={[
                { title: t("auditLog.detail.field"), dataIndex: "field" },
                { title: t("auditLog.detail.before"), dataIndex: "before", render: (v: string) => <del>{v}</del> },
                { title: t("auditLog.detail.after"), dataIndex: "after", render: (v: string) => <ins>{v}</ins> },
              ]}
            />
          ) : (
            <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
              {t("auditLog.detail.noChanges")}
            </Typography.Paragraph>
          )}
        </>
      ) : null}
    </Drawer>
  );
}

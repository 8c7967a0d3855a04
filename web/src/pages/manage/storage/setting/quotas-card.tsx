import { useQuery } from "@tanstack/react-query";
import { Button, Card, Checkbox, Form, InputNumber, Modal, Progress, Select, Space, Table, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  fetchQuotaUsers,
  fetchUserQuota,
  type LibraryQuota,
  setUserQuota,
  useLibraryQuotas,
  useSetLibraryQuota,
} from "../../../../api/storage";
import { Access } from "../../../../auth/access-component";
import { showRefusal } from "../../../../components/crud-table";
import { useFeedback } from "../../../../components/feedback";
import { formatSize } from "../../../../components/story-viewer/format";

const GB = 1024 ** 3;
const PERMISSION = "manage.storage.setting";
const toGb = (bytes: number) => Math.round((bytes / GB) * 1000) / 1000;

/** Quotas per library (usage beside each) and a user's network-disk quota, on /manage/storage/setting. */
export function QuotasCard() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const quotas = useLibraryQuotas();
  const setQuota = useSetLibraryQuota();
  const [editing, setEditing] = useState<{ row: LibraryQuota; gb: number | null; unlimited: boolean } | null>(null);
  const refused = (error: unknown) => showRefusal(error, (text) => message.error(text));

  const columns: ColumnsType<LibraryQuota> = [
    { title: t("storage.quotas.library"), dataIndex: "libraryName", key: "name" },
    {
      title: t("storage.quotas.used"),
      key: "used",
      render: (_, row) => (
        <Space direction="vertical" size={0} style={{ minWidth: 120 }}>
          <span>{formatSize(row.usedBytes)}</span>
          {row.quotaBytes !== null ? (
            <Progress
              size="small"
              percent={row.quotaBytes === 0 ? 100 : Math.min(100, Math.round((row.usedBytes / row.quotaBytes) * 100))}
            />
          ) : null}
        </Space>
      ),
    },
    {
      title: t("storage.quotas.quota"),
      key: "quota",
      render: (_, row) => (row.quotaBytes === null ? t("storage.quotas.unlimited") : formatSize(row.quotaBytes)),
    },
    {
      title: t("crud.actions"),
      key: "actions",
      render: (_, row) => (
        <Access action={`${PERMISSION}.edit`}>
          <Button
            type="link"
            size="small"
            data-testid={`library-quota-${row.libraryId}`}
            onClick={() =>
              setEditing({
                row,
                gb: row.quotaBytes === null ? null : toGb(row.quotaBytes),
                unlimited: row.quotaBytes === null,
              })
            }
          >
            {t("storage.quotas.set")}
          </Button>
        </Access>
      ),
    },
  ];

  return (
    <Card title={t("storage.quotas.title")} data-testid="quotas-card">
      <Typography.Paragraph type="secondary">{t("storage.quotas.help")}</Typography.Paragraph>
      <Table<LibraryQuota>
        rowKey="libraryId"
        size="middle"
        loading={quotas.isLoading}
        columns={columns}
        dataSource={quotas.data ?? []}
        pagination={false}
        scroll={{ x: "max-content" }}
      />
      <UserQuota />
      <Modal
        open={editing !== null}
        title={editing ? t("storage.quotas.setTitle", { name: editing.row.libraryName }) : ""}
        okText={t("storage.settings.save")}
        cancelText={t("crud.cancel")}
        confirmLoading={setQuota.isPending}
        okButtonProps={{ disabled: !!editing && !editing.unlimited && editing.gb === null }}
        destroyOnHidden
        onCancel={() => setEditing(null)}
        onOk={() =>
          editing &&
          setQuota.mutate(
            {
              libraryId: editing.row.libraryId,
              quotaBytes: editing.unlimited ? null : Math.round((editing.gb ?? 0) * GB),
            },
            {
              onSuccess: () => {
                setEditing(null);
                message.success(t("storage.quotas.saved"));
              },
              onError: refused,
            },
          )
        }
      >
        <Form layout="vertical">
          <Form.Item>
            <Checkbox
              checked={editing?.unlimited}
              onChange={(event) => setEditing((current) => current && { ...current, unlimited: event.target.checked })}
            >
              {t("storage.quotas.unlimited")}
            </Checkbox>
          </Form.Item>
          <Form.Item label={t("storage.quotas.gib")}>
            <InputNumber
              aria-label={t("storage.quotas.gib")}
              min={0}
              step={1}
              style={{ width: "100%" }}
              disabled={editing?.unlimited}
              value={editing?.gb ?? null}
              onChange={(gb) => setEditing((current) => current && { ...current, gb: gb ?? null })}
            />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}

/** One user's network-disk quota: find the user, see the usage, set the quota. */
function UserQuota() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [keyword, setKeyword] = useState("");
  const [userId, setUserId] = useState<string | null>(null);
  const [gb, setGb] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const users = useQuery({
    queryKey: ["storage", "quota-users", keyword],
    queryFn: () => fetchQuotaUsers(keyword),
  });
  const usage = useQuery({
    queryKey: ["storage", "user-quota", userId],
    queryFn: () => fetchUserQuota(userId!),
    enabled: userId !== null,
  });

  return (
    <Form layout="vertical" style={{ marginTop: 16 }}>
      <Form.Item label={t("storage.quotas.user")}>
        <Space wrap>
          <Select
            showSearch
            allowClear
            aria-label={t("storage.quotas.pickUser")}
            placeholder={t("storage.quotas.pickUser")}
            style={{ minWidth: 220 }}
            filterOption={false}
            onSearch={setKeyword}
            value={userId}
            onChange={(value: string | undefined) => {
              setUserId(value ?? null);
              setGb(null);
            }}
            options={(users.data ?? []).map((user) => ({
              value: user.id,
              label: user.name ? `${user.name} (${user.username})` : user.username,
            }))}
          />
          {usage.data ? (
            <Typography.Text data-testid="user-quota-usage">
              {t("storage.quotas.userUsage", {
                used: formatSize(usage.data.usedBytes),
                quota: formatSize(usage.data.quotaBytes),
              })}
            </Typography.Text>
          ) : null}
        </Space>
      </Form.Item>
      {userId && usage.data ? (
        <Form.Item label={t("storage.quotas.gib")}>
          <Space wrap>
            <InputNumber
              aria-label={t("storage.quotas.gib")}
              min={0}
              value={gb ?? toGb(usage.data.quotaBytes)}
              onChange={(value) => setGb(value)}
            />
            <Access action={`${PERMISSION}.edit`}>
              <Button
                type="primary"
                loading={saving}
                disabled={gb === null}
                onClick={async () => {
                  setSaving(true);
                  try {
                    await setUserQuota(userId, Math.round((gb ?? 0) * GB));
                    await usage.refetch();
                    setGb(null);
                    message.success(t("storage.quotas.saved"));
                  } catch (error) {
                    showRefusal(error, (text) => message.error(text));
                  } finally {
                    setSaving(false);
                  }
                }}
              >
                {t("storage.settings.save")}
              </Button>
            </Access>
          </Space>
        </Form.Item>
      ) : null}
    </Form>
  );
}

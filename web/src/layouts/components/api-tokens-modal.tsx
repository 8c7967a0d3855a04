import { CopyOutlined, KeyOutlined, PlusOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Form, Input, InputNumber, Modal, Popconfirm, Space, Table, Tag, Typography } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type ApiToken, createApiToken, identityKeys, revokeApiToken, useApiTokens } from "../../api/identity-admin";
import { useFeedback } from "../../components/feedback";

const when = (value: string | null) => (
  <span style={{ whiteSpace: "nowrap" }}>{value ? dayjs(value).format("YYYY-MM-DD HH:mm") : "—"}</span>
);

function tokenState(token: ApiToken, now = Date.now()): "revoked" | "expired" | "active" {
  if (token.revokedAt) return "revoked";
  if (token.expiresAt && Date.parse(token.expiresAt) <= now) return "expired";
  return "active";
}

/** The secret of a token just created: shown once, with a copy button. */
function NewSecret({ name, secret }: { name: string; secret: string }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      message.success(t("settings.copied"));
    } catch {
      message.error(t("settings.copyFailed"));
    }
  };
  return (
    <Alert
      type="success"
      showIcon
      style={{ marginBottom: 16 }}
      message={t("layout.getToken.created", { name })}
      description={
        <Space direction="vertical" style={{ width: "100%" }}>
          <Typography.Text type="warning">{t("layout.getToken.once")}</Typography.Text>
          <Space.Compact style={{ width: "100%" }}>
            <Input readOnly value={secret} data-testid="api-token-secret" style={{ fontFamily: "monospace" }} />
            <Button type="primary" icon={<CopyOutlined />} onClick={copy}>
              {t("layout.getToken.copy")}
            </Button>
          </Space.Compact>
        </Space>
      }
    />
  );
}

/** Spec section 2, the back area's 'get token' action: the user's personal API tokens. */
export function ApiTokensModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const tokens = useApiTokens(open);
  const [form] = Form.useForm<{ name: string; expiresInDays?: number | null }>();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);

  const close = () => {
    setCreated(null);
    form.resetFields();
    onClose();
  };

  return (
    <Modal
      title={
        <Space>
          <KeyOutlined />
          {t("layout.getToken.title")}
        </Space>
      }
      open={open}
      width={1060}
      onCancel={close}
      footer={<Button onClick={close}>{t("layout.close")}</Button>}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t("layout.getToken.body")}</Typography.Paragraph>
      {created ? <NewSecret name={created.name} secret={created.secret} /> : null}
      <Form
        form={form}
        layout="inline"
        style={{ marginBottom: 16, rowGap: 8 }}
        onFinish={async ({ name, expiresInDays }) => {
          setCreating(true);
          try {
            const result = await createApiToken({ name: name.trim(), expiresInDays: expiresInDays ?? undefined });
            setCreated({ name: result.token.name, secret: result.secret });
            form.resetFields();
            await queryClient.invalidateQueries({ queryKey: identityKeys.apiTokens() });
          } catch {
            // The API client has shown the error.
          } finally {
            setCreating(false);
          }
        }}
      >
        <Form.Item
          name="name"
          rules={[
            { required: true, whitespace: true, message: t("layout.getToken.name.required") },
            { max: 100, message: t("layout.getToken.name.max") },
          ]}
        >
          <Input
            placeholder={t("layout.getToken.name")}
            aria-label={t("layout.getToken.name")}
            style={{ width: 220 }}
          />
        </Form.Item>
        <Form.Item name="expiresInDays">
          <InputNumber
            min={1}
            max={3650}
            precision={0}
            placeholder={t("layout.getToken.days")}
            aria-label={t("layout.getToken.days")}
            addonAfter={t("layout.getToken.daysUnit")}
            style={{ width: 180 }}
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={creating}>
            {t("layout.getToken.create")}
          </Button>
        </Form.Item>
      </Form>
      <Table<ApiToken>
        size="small"
        rowKey="id"
        loading={tokens.isPending}
        dataSource={tokens.data ?? []}
        pagination={false}
        // Fixed widths that fit a "YYYY-MM-DD HH:mm" (the date columns overlapped in a fixed layout); narrower
        // windows scroll sideways instead of squeezing them.
        scroll={{ x: 990, y: 280 }}
        locale={{ emptyText: t("layout.getToken.none") }}
        columns={[
          { title: t("layout.getToken.name"), dataIndex: "name", ellipsis: true, width: 160 },
          {
            title: t("layout.getToken.prefix"),
            dataIndex: "prefix",
            width: 150,
            render: (prefix: string) => (
              <Typography.Text code style={{ whiteSpace: "nowrap" }}>
                {prefix}…
              </Typography.Text>
            ),
          },
          { title: t("layout.getToken.createdAt"), dataIndex: "createdAt", render: when, width: 160 },
          { title: t("layout.getToken.lastUsed"), dataIndex: "lastUsedAt", render: when, width: 160 },
          {
            title: t("layout.getToken.expiresAt"),
            dataIndex: "expiresAt",
            width: 160,
            render: (value: string | null) => (value ? when(value) : t("layout.getToken.never")),
          },
          {
            title: t("admin.status"),
            key: "state",
            width: 110,
            render: (_, token) => {
              const state = tokenState(token);
              const color = state === "active" ? "success" : state === "expired" ? "warning" : "default";
              return <Tag color={color}>{t(`layout.getToken.state.${state}`)}</Tag>;
            },
          },
          {
            title: t("crud.actions"),
            key: "actions",
            width: 90,
            render: (_, token) =>
              token.revokedAt ? null : (
                <Popconfirm
                  title={t("layout.getToken.revokeConfirm")}
                  okText={t("crud.ok")}
                  cancelText={t("crud.cancel")}
                  onConfirm={async () => {
                    await revokeApiToken(token.id);
                    message.success(t("crud.saved"));
                    await queryClient.invalidateQueries({ queryKey: identityKeys.apiTokens() });
                  }}
                >
                  <Button type="link" size="small" danger>
                    {t("layout.getToken.revoke")}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </Modal>
  );
}

import { CheckCircleFilled } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Form, Modal, Space, Tabs, Typography } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { createShare, type ShareGrant, type ShareTarget, shareKeys, useShareSettings } from "../../api/shares";
import { MyShares } from "./my-shares";
import { initialShareValues, type ShareFormValues, ShareOptionsFields, shareBody } from "./share-form";

export interface ShareDialogProps {
  /** What to share: a story, several, a folder or a search. */
  target: ShareTarget;
  /** The title visitors see unless the owner types another. */
  defaultTitle?: string;
  onClose: () => void;
}

/** Share a link with its options, show it once with copy, and list my shares with revoke (issue 16). */
export function ShareDialog({ target, defaultTitle = "", onClose }: ShareDialogProps) {
  // A folder share may let visitors upload into that folder (docs/sharing.md, "Upload drop").
  const dropFolder = target.kind === "folder" ? { libraryId: target.libraryId, folderId: target.folderId } : undefined;
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const settings = useShareSettings();
  const [form] = Form.useForm<ShareFormValues>();
  const [grant, setGrant] = useState<ShareGrant | null>(null);
  const [tab, setTab] = useState("new");
  const create = useMutation({
    mutationFn: (values: ShareFormValues) => createShare({ target, ...shareBody(values, dropFolder) }),
    onSuccess: async (created) => {
      setGrant(created);
      await queryClient.invalidateQueries({ queryKey: shareKeys.all });
    },
  });
  const link = grant ? new URL(grant.url, window.location.origin).toString() : "";
  const created = grant ? (
    <div data-testid="share-result">
      <Typography.Paragraph>
        <CheckCircleFilled style={{ color: "#52c41a", marginInlineEnd: 8 }} />
        {t("share.created")}
      </Typography.Paragraph>
      <Typography.Paragraph
        data-testid="share-link"
        copyable={{ text: link, tooltips: [t("stories.copy"), t("stories.copied")] }}
        style={{ wordBreak: "break-all", background: "#f5f5f5", padding: 8, borderRadius: 6 }}
      >
        {link}
      </Typography.Paragraph>
      <Typography.Text type="secondary">
        {grant.expiresAt
          ? t("stories.shareExpires", { date: dayjs(grant.expiresAt).format("YYYY-MM-DD HH:mm") })
          : t("share.neverExpires")}
      </Typography.Text>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t("share.onceOnly")}
      </Typography.Paragraph>
      <Space>
        <Button type="primary" onClick={onClose}>
          {t("share.done")}
        </Button>
        <Button onClick={() => setGrant(null)}>{t("share.another")}</Button>
      </Space>
    </div>
  ) : null;
  return (
    <Modal
      open
      title={t("stories.shareTitle")}
      width={620}
      onCancel={onClose}
      footer={
        tab === "new" && !grant ? (
          <Space>
            <Button onClick={onClose}>{t("crud.cancel")}</Button>
            <Button type="primary" loading={create.isPending} onClick={() => form.submit()} data-testid="share-create">
              {t("share.create")}
            </Button>
          </Space>
        ) : null
      }
      data-testid="share-dialog"
    >
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: "new",
            label: t("share.tab.new"),
            children:
              created ??
              (settings.isLoading ? null : (
                <Form
                  form={form}
                  layout="vertical"
                  initialValues={initialShareValues(defaultTitle)}
                  onFinish={(values) => create.mutate(values)}
                >
                  <ShareOptionsFields settings={settings.data} dropFolder={dropFolder} />
                </Form>
              )),
          },
          { key: "mine", label: t("share.tab.mine"), children: <MyShares /> },
        ]}
      />
    </Modal>
  );
}

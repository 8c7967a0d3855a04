import { useQueryClient } from "@tanstack/react-query";
import { Button, Form, Input, List, Modal, Radio, Select, Space, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type DiskNode,
  diskKeys,
  revokeDiskShare,
  type ShareGrantee,
  type ShareLevel,
  shareDiskNode,
  useDiskShares,
} from "../../../../api/disk";

const ROLES = ["editor", "contributor", "viewer", "administrator"] as const;
const LEVELS: ShareLevel[] = ["view", "download", "edit"];

/** Shares one of the caller's items with a colleague, a role or everyone; lists and revokes its shares. */
export function ShareDialog({ item, onClose }: { item: DiskNode | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const shares = useDiskShares(item?.id);
  const [kind, setKind] = useState<ShareGrantee["kind"]>("user");
  const [username, setUsername] = useState("");
  const [roleId, setRoleId] = useState<string>("editor");
  const [level, setLevel] = useState<ShareLevel>("view");
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: diskKeys.all });
  const grantee: ShareGrantee =
    kind === "user" ? { kind, username: username.trim() } : kind === "role" ? { kind, roleId } : { kind };
  const share = async () => {
    if (!item) return;
    setBusy(true);
    try {
      await shareDiskNode(item.id, grantee, level);
      setUsername("");
      await refresh();
    } finally {
      setBusy(false);
    }
  };
  const granteeLabel = (share: { granteeKind: string; granteeName: string }) =>
    share.granteeKind === "everyone"
      ? t("disk.share.everyone")
      : share.granteeKind === "role"
        ? t("disk.share.roleName", { name: share.granteeName })
        : share.granteeName;
  return (
    <Modal
      open={item !== null}
      title={t("disk.share.title", { name: item?.name ?? "" })}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t("disk.close")}</Button>}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t("disk.share.with")}>
          <Radio.Group
            value={kind}
            onChange={(event) => setKind(event.target.value)}
            options={(["user", "role", "everyone"] as const).map((value) => ({
              value,
              label: t(`disk.share.kind.${value}`),
            }))}
          />
        </Form.Item>
        {kind === "user" ? (
          <Form.Item label={t("disk.share.username")}>
            <Input
              aria-label={t("disk.share.username")}
              data-testid="disk-share-username"
              value={username}
              onChange={(event) => setUsername(event.target.value)}
            />
          </Form.Item>
        ) : null}
        {kind === "role" ? (
          <Form.Item label={t("disk.share.role")}>
            <Select
              value={roleId}
              onChange={setRoleId}
              options={ROLES.map((role) => ({ value: role, label: t(`disk.share.roles.${role}`) }))}
            />
          </Form.Item>
        ) : null}
        <Form.Item label={t("disk.share.level")}>
          <Radio.Group
            value={level}
            onChange={(event) => setLevel(event.target.value)}
            options={LEVELS.map((value) => ({ value, label: t(`disk.level.${value}`) }))}
          />
        </Form.Item>
        <Button
          type="primary"
          loading={busy}
          disabled={kind === "user" && !username.trim()}
          onClick={share}
          data-testid="disk-share-ok"
        >
          {t("disk.share.ok")}
        </Button>
      </Form>
      <List
        style={{ marginTop: 16 }}
        size="small"
        header={t("disk.share.current")}
        loading={shares.isLoading}
        dataSource={shares.data ?? []}
        locale={{ emptyText: t("disk.share.none") }}
        renderItem={(share) => (
          <List.Item
            actions={[
              <Button
                key="revoke"
                size="small"
                danger
                onClick={async () => {
                  await revokeDiskShare(share.id);
                  await refresh();
                }}
              >
                {t("disk.share.revoke")}
              </Button>,
            ]}
          >
            <Space wrap>
              {granteeLabel(share)}
              <Tag>{t(`disk.level.${share.level}`)}</Tag>
            </Space>
          </List.Item>
        )}
      />
    </Modal>
  );
}

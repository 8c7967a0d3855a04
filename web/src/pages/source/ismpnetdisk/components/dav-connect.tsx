import { KeyOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Descriptions, Grid, Modal, Space, Tabs, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { fetchCurrentUser } from "../../../../auth/current-user";
import { useCurrentUser } from "../../../../auth/session-context";
import { CURRENT_USER_QUERY } from "../../../../auth/session-gate";
import { LazyPart, lazyChunk, useOpenedOnce } from "../../../../components/lazy-part";
import { type DavAddress, davAddresses } from "./dav-addresses";

const ApiTokensModal = lazyChunk("api-tokens-modal", () =>
  import("../../../../layouts/components/api-tokens-modal").then((m) => m.ApiTokensModal),
);

const SYSTEMS = ["mac", "windows", "linux"] as const;

/**
 * "Connect over WebDAV": the addresses of the user's disk, "shared with me"
 * and the libraries (read-only) for Finder, Windows Explorer and Linux, each
 * copyable, and the credentials — the user name and a personal API token,
 * never the account password (docs/disk.md, "Signing in").
 */
export function DavConnect({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  // /source/ismpnetdisk is outside the session gate (spec section 2): load the user here when no provider holds it.
  const provided = useCurrentUser();
  const loaded = useQuery({
    queryKey: CURRENT_USER_QUERY,
    queryFn: fetchCurrentUser,
    staleTime: Number.POSITIVE_INFINITY,
    enabled: provided === null,
  });
  const user = provided ?? loaded.data ?? null;
  const [tokens, setTokens] = useState(false);
  const tokensOpened = useOpenedOnce(tokens);
  const addresses = davAddresses(window.location);
  // On a phone the labels go above the values, so neither is squeezed into a column of single characters.
  const layout = Grid.useBreakpoint().sm === false ? "vertical" : "horizontal";
  const copy = (text: string) => ({ text, tooltips: [t("stories.copy"), t("stories.copied")] });
  const address = (entry: DavAddress, system: (typeof SYSTEMS)[number]) =>
    system === "windows" ? entry.windows : system === "linux" ? entry.linux : entry.url;
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      title={t("disk.dav.title")}
      width={640}
      destroyOnHidden
      data-testid="dav-connect"
    >
      <Typography.Paragraph>{t("disk.dav.intro")}</Typography.Paragraph>
      {window.location.protocol === "https:" ? null : (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={t("disk.dav.https")} />
      )}
      <Tabs
        items={SYSTEMS.map((system) => ({
          key: system,
          label: t(`disk.dav.system.${system}`),
          children: (
            <Space direction="vertical" size={8} style={{ width: "100%" }} data-testid={`dav-${system}`}>
              <Typography.Text type="secondary">{t(`disk.dav.how.${system}`)}</Typography.Text>
              <Descriptions column={1} size="small" bordered layout={layout}>
                {addresses.map((entry) => (
                  <Descriptions.Item key={entry.mount} label={t(`disk.dav.mount.${entry.mount}`)}>
                    <Typography.Text
                      code
                      copyable={copy(address(entry, system))}
                      style={{ wordBreak: "break-all" }}
                      data-testid={`dav-address-${entry.mount}`}
                    >
                      {address(entry, system)}
                    </Typography.Text>
                  </Descriptions.Item>
                ))}
              </Descriptions>
            </Space>
          ),
        }))}
      />
      <Typography.Title level={5} style={{ marginTop: 8 }}>
        {t("disk.dav.credentials")}
      </Typography.Title>
      <Descriptions column={1} size="small" bordered layout={layout}>
        <Descriptions.Item label={t("disk.dav.userName")}>
          <Typography.Text code copyable={copy(user?.username ?? "")} data-testid="dav-username">
            {user?.username ?? ""}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t("disk.dav.password")}>
          <Space direction="vertical" size={4}>
            <Typography.Text>{t("disk.dav.token")}</Typography.Text>
            <Button size="small" icon={<KeyOutlined />} onClick={() => setTokens(true)} data-testid="dav-make-token">
              {t("disk.dav.makeToken")}
            </Button>
          </Space>
        </Descriptions.Item>
      </Descriptions>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        {t("disk.dav.readOnly")}
      </Typography.Paragraph>
      {tokensOpened ? (
        <LazyPart>
          <ApiTokensModal open={tokens} onClose={() => setTokens(false)} />
        </LazyPart>
      ) : null}
    </Modal>
  );
}

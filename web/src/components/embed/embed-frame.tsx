import { LoginOutlined, ReloadOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Button, Result, Space } from "antd";
import { type ReactNode, useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { embedKeys, fetchEmbedConfig } from "../../api/embed";
import { hasSession } from "../../api/session";
import { PageLoading } from "../page-loading";
import {
  EMBED_MESSAGES,
  type EmbedPageName,
  type EmbedTarget,
  embedTarget,
  isPing,
  type OutgoingMessage,
  openerOf,
  postToOpener,
} from "./protocol";

export type EmbedPage = EmbedPageName;

export interface Embed {
  target: EmbedTarget & { ok: true };
  post: (message: OutgoingMessage) => boolean;
}

/**
 * The frame of an embeddable page (docs/embedding.md): checks the opener's
 * origin against the allow-list, makes sure there is a session (a sign-in in
 * a separate window otherwise), announces the page to the opener and answers
 * its pings. `children` get the way to post to the opener.
 */
export function EmbedFrame({
  page,
  allowSelf = false,
  children,
}: {
  page: EmbedPage;
  /** Our own pages may open it too (the video edit dialog frames the video editor). */
  allowSelf?: boolean;
  children: (embed: Embed) => ReactNode;
}) {
  const { t } = useTranslation();
  const config = useQuery({
    queryKey: embedKeys.config(),
    queryFn: fetchEmbedConfig,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const target = useMemo(
    () =>
      config.data
        ? embedTarget(
            window.location.search,
            allowSelf ? [...config.data.origins, window.location.origin] : config.data.origins,
          )
        : null,
    [config.data, allowSelf],
  );
  const opener = useMemo(() => openerOf(window), []);
  const signedIn = useSignedIn();
  const post = useCallback(
    (message: OutgoingMessage) => (target ? postToOpener(opener as Window | null, target, message) : false),
    [opener, target],
  );

  useEffect(() => {
    if (!target?.ok) return;
    post({ type: EMBED_MESSAGES.ready, page });
    const onMessage = (event: MessageEvent) => {
      if (isPing(event, target, opener)) post({ type: EMBED_MESSAGES.ready, page });
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [target, opener, post, page]);

  if (config.isPending) return <PageLoading />;
  if (config.isError) return <Result status="500" title={t("embed.configFailed")} />;
  if (!target?.ok) {
    return (
      <div data-testid="embed-refused">
        <Result
          status="403"
          title={t("embed.refused")}
          subTitle={t(`embed.refused.${target?.reason ?? "missing"}`, { origin: target?.origin ?? "" })}
        />
      </div>
    );
  }
  if (!signedIn) return <EmbedSignIn />;
  return <>{children({ target, post })}</>;
}

/** Whether there is a session, following sign-ins in other windows of our origin (the storage event). */
function useSignedIn(): boolean {
  const [signedIn, setSignedIn] = useState(() => hasSession());
  useEffect(() => {
    const onStorage = () => setSignedIn(hasSession());
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);
  return signedIn;
}

/**
 * No session in this frame: the sign-in runs in its own window (sign-in pages
 * refuse to be framed), and this page carries on once the session appears in
 * our origin's storage. Where the browser partitions a frame's storage
 * (another site frames us), the opener passes a token in the URL hash instead
 * (docs/embedding.md).
 */
function EmbedSignIn() {
  const { t } = useTranslation();
  return (
    <div data-testid="embed-sign-in">
      <Result
        status="info"
        title={t("embed.signIn.title")}
        subTitle={t("embed.signIn.hint")}
        extra={
          <Space>
            <Button
              type="primary"
              icon={<LoginOutlined />}
              onClick={() => window.open("/frontend/search", "dams-sign-in", "popup,width=520,height=720")}
            >
              {t("embed.signIn.action")}
            </Button>
            <Button icon={<ReloadOutlined />} onClick={() => window.location.reload()}>
              {t("embed.signIn.reload")}
            </Button>
          </Space>
        }
      />
    </div>
  );
}

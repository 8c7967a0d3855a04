import { PictureOutlined } from "@ant-design/icons";
import { Button, Result, Skeleton, Typography } from "antd";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { ApiError } from "../../../api/http";
import { useVisitorShare } from "../../../api/shares";
import { LanguageSwitch } from "../../../layouts/components/language-switch";
import { useLanguage } from "../../../layouts/language-context";
import { LANGUAGE_STORAGE_KEY, type Language } from "../../../locales";
import { PasswordForm } from "./components/password-form";
import { ShareContent } from "./components/share-content";
import { ShareDrop } from "./components/share-drop";

const SESSION_KEY = "dams-share-session:";

/** The browser's language when the visitor has not chosen one here (zh-CN for Chinese, en-US otherwise). */
function browserLanguage(): Language {
  const preferred = navigator.languages?.[0] ?? navigator.language ?? "";
  return preferred.toLowerCase().startsWith("zh") ? "zh-CN" : "en-US";
}

function useNoIndex() {
  useEffect(() => {
    const meta = document.createElement("meta");
    meta.name = "robots";
    meta.content = "noindex, nofollow";
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);
}

function Gone() {
  const { t } = useTranslation();
  return (
    <div data-testid="visitor-gone">
      <Result status="warning" title={t("share.visitor.goneTitle")} subTitle={t("share.visitor.goneText")} />
    </div>
  );
}

/** The share's stories are all under embargo (403 share_embargoed): until when. */
function Embargoed({ until }: { until: string | undefined }) {
  const { t } = useTranslation();
  const date = until ? new Date(until).toLocaleString() : "—";
  return (
    <div data-testid="visitor-embargoed">
      <Result
        status="info"
        title={t("share.visitor.embargoedTitle")}
        subTitle={t("share.visitor.embargoedText", { date })}
      />
    </div>
  );
}

/** /share/storyPreview?token=…: the shared manuscript, for a visitor without an account (issue 16). */
export default function StoryPreviewPage() {
  const { t } = useTranslation();
  const { language, setLanguage } = useLanguage();
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const sessionKey = `${SESSION_KEY}${token.slice(0, 16)}`;
  const [session, setSession] = useState<string | null>(() => sessionStorage.getItem(sessionKey));
  const share = useVisitorShare(token, session);
  useNoIndex();
  useEffect(() => {
    // The browser's language, unless the visitor picked one (the switch stores it).
    if (localStorage.getItem(LANGUAGE_STORAGE_KEY) === null && browserLanguage() !== language) {
      setLanguage(browserLanguage());
    }
  }, [language, setLanguage]);
  const failure = share.error instanceof ApiError ? share.error : null;
  const staleSession = failure?.status === 401 && session !== null;
  useEffect(() => {
    // A session the share no longer takes (a new password): ask for the password again.
    if (staleSession) {
      sessionStorage.removeItem(sessionKey);
      setSession(null);
    }
  }, [staleSession, sessionKey]);
  let body: ReactNode;
  if (!token || failure?.status === 410) body = <Gone />;
  else if (failure?.code === "share_embargoed") body = <Embargoed until={failure.coded.msgParams?.until as string} />;
  else if (share.isPending) body = <Skeleton active />;
  else if (staleSession) body = <Skeleton active />;
  else if (share.isError) {
    body = (
      <Result
        status={failure?.status === 429 ? "warning" : "error"}
        title={failure?.status === 429 ? t("share.visitor.throttled") : t("share.visitor.failed")}
        extra={<Button onClick={() => void share.refetch()}>{t("share.visitor.retry")}</Button>}
      />
    );
  } else if (share.data.locked) {
    body = (
      <PasswordForm
        token={token}
        title={share.data.title}
        onUnlocked={(next) => {
          sessionStorage.setItem(sessionKey, next);
          setSession(next);
        }}
      />
    );
  } else {
    const drop = share.data.uploadDrop;
    body = (
      <>
        <ShareContent share={share.data} />
        {drop ? <ShareDrop token={token} session={session} owner={share.data.owner} drop={drop} /> : null}
      </>
    );
  }
  return (
    <div style={{ maxWidth: 1080, margin: "-8px auto 0" }}>
      <header
        style={{ display: "flex", alignItems: "center", justifyContent: "space-between", marginBottom: 16, gap: 8 }}
        data-testid="visitor-brand"
      >
        <Typography.Text strong style={{ fontSize: 18 }}>
          <PictureOutlined style={{ color: "#1890ff", marginInlineEnd: 8 }} />
          {t("app.title")}
        </Typography.Text>
        <LanguageSwitch />
      </header>
      {body}
    </div>
  );
}

import "@uppy/core/dist/style.min.css";
import "@uppy/dashboard/dist/style.min.css";
import { CloudUploadOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import Uppy from "@uppy/core";
import uppyEnUS from "@uppy/locales/lib/en_US.js";
import uppyZhCN from "@uppy/locales/lib/zh_CN.js";
// The package index pulls in every optional peer (drag-drop, webcam…); only the Dashboard is used.
import Dashboard from "@uppy/react/lib/Dashboard.js";
import Tus from "@uppy/tus";
import { Alert, Card, Input, Typography } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { VisitorShare } from "../../../../api/shares";
import { uploadLimitsQuery } from "../../../../api/uploads";
import { useTusLimits } from "../../../../components/uploader/tus-limits";
import { formatBytes } from "../../../../components/uploader/upload-logic";

/** The visitors' tus endpoint of share links' upload drops (docs/sharing.md, "Upload drop"). */
export const SHARE_DROP_ENDPOINT = "/dams/api/v1/shared/uploads";
const NAME_KEY = "dams-share-visitor-name";

type Drop = NonNullable<VisitorShare["uploadDrop"]>;

/**
 * The visitor's drop zone: their name (kept for the tab), then files through
 * tus with the share's token and session, with Uppy's progress, pause,
 * resume and retry. Each file reaches the owner as a draft with the
 * visitor's name as author.
 */
export function ShareDrop({
  token,
  session,
  owner,
  drop,
}: {
  token: string;
  session: string | null;
  owner: string;
  drop: Drop;
}) {
  const { t, i18n } = useTranslation();
  const [name, setName] = useState(() => sessionStorage.getItem(NAME_KEY) ?? "");
  const [sent, setSent] = useState(0);
  const [missingName, setMissingName] = useState(false);
  // Files refused, by Uppy's restrictions before sending or by the server: each named with why, until retried.
  const [refused, setRefused] = useState<{ id: string; text: string }[]>([]);
  const nameRef = useRef(name);
  nameRef.current = name;
  const left = drop.maxFiles === null ? null : Math.max(0, drop.maxFiles - drop.files - sent);
  const uppy = useMemo(
    () =>
      new Uppy({ id: `dams-share-drop-${token.slice(0, 8)}`, autoProceed: false }).use(Tus, {
        endpoint: SHARE_DROP_ENDPOINT,
        retryDelays: [0, 1000, 3000, 5000, 10_000],
        storeFingerprintForResuming: true,
        removeFingerprintOnSuccess: true,
        limit: 2,
        allowedMetaFields: ["name", "filename", "visitorName"],
      }),
    [token],
  );
  useEffect(() => () => uppy.destroy(), [uppy]);
  // Each file in one request, unless the server names a PATCH size for a proxy's body limit.
  useTusLimits(uppy, useQuery(uploadLimitsQuery(SHARE_DROP_ENDPOINT)).data);
  useEffect(() => {
    const tus = uppy.getPlugin("Tus");
    tus?.setOptions({
      headers: { "X-Share-Token": token, ...(session ? { "X-Share-Session": session } : {}) },
    });
  }, [uppy, token, session]);
  useEffect(() => {
    uppy.setOptions({
      locale: i18n.language === "en-US" ? uppyEnUS : uppyZhCN,
      restrictions: {
        maxFileSize: drop.maxBytes,
        maxNumberOfFiles: left,
        allowedFileTypes: ["image/*", "video/*", "audio/*"],
      },
      onBeforeUpload: (files) => {
        const visitorName = nameRef.current.trim();
        if (!visitorName) {
          setMissingName(true);
          return false;
        }
        for (const file of Object.values(files)) {
          file.meta = { ...file.meta, filename: file.name ?? "", visitorName };
        }
        return files;
      },
    });
  }, [uppy, i18n.language, drop.maxBytes, left]);
  useEffect(() => {
    const onSuccess = (file?: { id: string }) => {
      setSent((count) => count + 1);
      if (file) setRefused((list) => list.filter((entry) => entry.id !== file.id));
    };
    const refuse = (id: string, text: string) =>
      setRefused((list) => [...list.filter((entry) => entry.id !== id), { id, text }]);
    const onRestriction = (file: { id: string; name?: string; size: number | null } | undefined) => {
      if (!file) return;
      const name = file.name ?? "";
      refuse(
        file.id,
        drop.maxBytes !== null && (file.size ?? 0) > drop.maxBytes
          ? t("share.visitor.dropTooBig", { name, size: formatBytes(drop.maxBytes) })
          : left === 0
            ? t("share.visitor.dropTooMany", { name })
            : t("share.visitor.dropWrongType", { name }),
      );
    };
    const onError = (
      file: { id: string; name?: string } | undefined,
      error: Error & { originalResponse?: unknown },
    ) => {
      if (!file) return;
      refuse(file.id, t("share.visitor.dropRefused", { name: file.name ?? "", reason: serverReason(error) }));
    };
    uppy.on("upload-success", onSuccess);
    uppy.on("restriction-failed", onRestriction);
    uppy.on("upload-error", onError);
    return () => {
      uppy.off("upload-success", onSuccess);
      uppy.off("restriction-failed", onRestriction);
      uppy.off("upload-error", onError);
    };
  }, [uppy, t, drop.maxBytes, left]);

  const limits = [
    drop.maxFiles !== null ? t("share.visitor.dropFiles", { left: left ?? 0, max: drop.maxFiles }) : null,
    drop.maxBytes !== null ? t("share.visitor.dropSize", { size: formatBytes(drop.maxBytes) }) : null,
  ].filter(Boolean);
  return (
    <Card
      style={{ marginTop: 24 }}
      data-testid="share-drop"
      title={
        <span>
          <CloudUploadOutlined style={{ marginInlineEnd: 8 }} />
          {t("share.visitor.dropTitle")}
        </span>
      }
    >
      <Typography.Paragraph>{t("share.visitor.dropText", { name: owner })}</Typography.Paragraph>
      {limits.length ? <Typography.Paragraph type="secondary">{limits.join(" · ")}</Typography.Paragraph> : null}
      {left === 0 && sent === 0 ? (
        <Alert type="info" showIcon message={t("share.visitor.dropFull")} />
      ) : (
        <>
          <label htmlFor="share-drop-name" style={{ display: "block", marginBottom: 4 }}>
            {t("share.visitor.dropName")}
          </label>
          <Input
            id="share-drop-name"
            data-testid="share-drop-name"
            value={name}
            maxLength={100}
            size="large"
            status={missingName && !name.trim() ? "error" : undefined}
            onChange={(event) => {
              setName(event.target.value);
              sessionStorage.setItem(NAME_KEY, event.target.value);
              if (event.target.value.trim()) setMissingName(false);
            }}
            style={{ marginBottom: 8 }}
          />
          {missingName && !name.trim() ? (
            <Typography.Text
              type="danger"
              style={{ display: "block", marginBottom: 8 }}
              data-testid="share-drop-name-required"
            >
              {t("share.visitor.dropNameRequired")}
            </Typography.Text>
          ) : null}
          <Dashboard
            uppy={uppy}
            width="100%"
            height={320}
            proudlyDisplayPoweredByUppy={false}
            showProgressDetails
            note={t("share.visitor.dropNote")}
          />
        </>
      )}
      {refused.length > 0 ? (
        <Alert
          style={{ marginTop: 12 }}
          type="error"
          showIcon
          data-testid="share-drop-refused"
          message={t("share.visitor.dropRefusedTitle")}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {refused.map((entry) => (
                <li key={entry.id} style={{ wordBreak: "break-word" }}>
                  {entry.text}
                </li>
              ))}
            </ul>
          }
          closable
          onClose={() => setRefused([])}
        />
      ) : null}
      {sent > 0 ? (
        <Alert
          style={{ marginTop: 12 }}
          type="success"
          showIcon
          message={t("share.visitor.dropDone", { count: sent })}
          data-testid="share-drop-done"
        />
      ) : null}
    </Card>
  );
}

/** The server's own words for a refused upload (its JSON `message`), else tus's error text. */
function serverReason(error: Error & { originalResponse?: unknown }): string {
  const response = error.originalResponse as { getBody?: () => string } | null | undefined;
  try {
    const body = JSON.parse(response?.getBody?.() ?? "") as { message?: unknown };
    if (typeof body.message === "string" && body.message) return body.message;
  } catch {
    // not JSON: fall through
  }
  return error.message;
}

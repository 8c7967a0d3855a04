import { Button, Drawer, List, Tag, Typography } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type ShareItem, type ShareVisit, useShareVisits } from "../../api/shares";

const ACTION_COLORS: Record<ShareVisit["action"], string> = {
  open: "blue",
  locked: "default",
  unlock: "green",
  "wrong-password": "red",
  view: "cyan",
  download: "purple",
  zip: "purple",
  upload: "gold",
};

const PAGE_SIZE = 20;

/** Rows of a share's visitor log: when, what (and which story), from which address, with which browser. */
export function ShareVisitList({ visits, loading = false }: { visits: ShareVisit[]; loading?: boolean }) {
  const { t } = useTranslation();
  return (
    <List
      size="small"
      loading={loading}
      dataSource={visits}
      locale={{ emptyText: t("share.visits.empty") }}
      renderItem={(visit) => (
        <List.Item data-testid="share-visit">
          <div style={{ minWidth: 0, width: "100%" }}>
            <div style={{ display: "flex", flexWrap: "wrap", gap: 6, alignItems: "center" }}>
              <Typography.Text>{dayjs(visit.at).format("YYYY-MM-DD HH:mm:ss")}</Typography.Text>
              <Tag color={ACTION_COLORS[visit.action]}>{t(`share.visits.action.${visit.action}`)}</Tag>
              <Typography.Text code>{visit.address ?? "—"}</Typography.Text>
              {visit.visitorName ? (
                <Typography.Text strong data-testid="share-visit-name">
                  {t("share.visits.by", { name: visit.visitorName })}
                </Typography.Text>
              ) : null}
            </div>
            {visit.storyId ? (
              <Typography.Text style={{ wordBreak: "break-all" }}>
                {visit.storyTitle || t("share.visits.unknownStory")}
              </Typography.Text>
            ) : null}
            {visit.userAgent ? (
              <Typography.Text
                type="secondary"
                style={{ display: "block", fontSize: 12, wordBreak: "break-all" }}
                title={visit.userAgent}
              >
                {visit.userAgent}
              </Typography.Text>
            ) : null}
          </div>
        </List.Item>
      )}
    />
  );
}

/** The "visitor log" action of a share in my shares: a drawer with its visits, newest first, paged. */
export function ShareVisitsButton({ share }: { share: Pick<ShareItem, "id" | "title" | "kind"> }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [page, setPage] = useState(0);
  const visits = useShareVisits(open ? share.id : null, page, PAGE_SIZE);
  const total = visits.data?.totalElements ?? 0;
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} data-testid="share-visits-open">
        {t("share.visits.open")}
      </Button>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        width="min(560px, 100vw)"
        title={`${t("share.visits.title")} · ${share.title || t(`share.kind.${share.kind}`)}`}
        destroyOnHidden
        data-testid="share-visits"
      >
        <Typography.Paragraph type="secondary">{t("share.visits.total", { count: total })}</Typography.Paragraph>
        <ShareVisitList visits={visits.data?.content ?? []} loading={visits.isLoading} />
        {total > PAGE_SIZE ? (
          <div style={{ display: "flex", justifyContent: "space-between", marginTop: 12 }}>
            <Button size="small" disabled={page === 0} onClick={() => setPage(page - 1)}>
              {t("share.visits.newer")}
            </Button>
            <Typography.Text type="secondary">
              {page + 1} / {Math.ceil(total / PAGE_SIZE)}
            </Typography.Text>
            <Button size="small" disabled={(page + 1) * PAGE_SIZE >= total} onClick={() => setPage(page + 1)}>
              {t("share.visits.older")}
            </Button>
          </div>
        ) : null}
      </Drawer>
    </>
  );
}

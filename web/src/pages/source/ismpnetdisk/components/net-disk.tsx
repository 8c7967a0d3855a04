import { CloudServerOutlined, FolderAddOutlined, ReloadOutlined, UploadOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { Breadcrumb, Button, Modal, Segmented, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  createDiskFolder,
  type DiskNode,
  type DiskSentFile,
  diskKeys,
  fetchDiskFile,
  trashDiskNode,
  updateDiskNode,
  useDiskFolder,
} from "../../../../api/disk";
import { saveBlob } from "../../../../api/files";
import { useAccess } from "../../../../auth/access-component";
import { useFeedback } from "../../../../components/feedback";
import { STORY_ACCESS } from "../../../../components/story-actions";
import { DavConnect } from "./dav-connect";
import { type DiskAction, DiskTable } from "./disk-table";
import { DiskUpload } from "./disk-upload";
import { MoveDialog } from "./move-dialog";
import { NameDialog } from "./name-dialog";
import { PreviewDialog } from "./preview-dialog";
import { QuotaBar } from "./quota-bar";
import { SendDialog } from "./send-dialog";
import { ShareDialog } from "./share-dialog";
import { SharedWithMe } from "./shared-with-me";
import { TrashList } from "./trash-list";

export type DiskView = "mine" | "shared" | "trash";

/**
 * My network disk: the folder tree as a list with a path, uploads, folders,
 * rename, move, trash, preview, send to library and sharing; "shared with
 * me" and the trash beside it. `footer` is the embedding's confirm bar.
 */
export function NetDisk({
  initialFolder,
  footer,
  onSelection,
}: {
  initialFolder: string | null;
  footer?: React.ReactNode;
  onSelection?: (items: DiskNode[]) => void;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const can = useAccess();
  const [view, setView] = useState<DiskView>("mine");
  const [folderId, setFolderId] = useState<string | null>(initialFolder);
  const [selected, setSelected] = useState<string[]>([]);
  const [naming, setNaming] = useState<{ item: DiskNode | null } | null>(null);
  const [moving, setMoving] = useState<DiskNode[]>([]);
  const [sending, setSending] = useState<DiskNode[]>([]);
  const [sharing, setSharing] = useState<DiskNode | null>(null);
  const [previewing, setPreviewing] = useState<DiskNode | null>(null);
  const [uploading, setUploading] = useState(false);
  const [connecting, setConnecting] = useState(false);
  const folder = useDiskFolder(folderId, view === "mine");
  const items = folder.data?.items ?? [];
  const current = folder.data?.folder ?? null;
  const canWrite = current === null || current.access === "owner" || current.access === "edit";
  const refresh = () => queryClient.invalidateQueries({ queryKey: diskKeys.all });
  const chosen = items.filter((item) => selected.includes(item.id));

  const open = (id: string | null) => {
    setView("mine");
    setFolderId(id);
    setSelected([]);
    onSelection?.([]);
  };
  const select = (ids: string[]) => {
    setSelected(ids);
    onSelection?.(items.filter((item) => ids.includes(item.id)));
  };
  const act = async (action: DiskAction, item: DiskNode) => {
    if (action === "open") open(item.id);
    else if (action === "preview") setPreviewing(item);
    else if (action === "download") {
      const file = await fetchDiskFile(item.id, "attachment");
      saveBlob(file.blob, file.name ?? item.name);
    } else if (action === "rename") setNaming({ item });
    else if (action === "move") setMoving([item]);
    else if (action === "share") setSharing(item);
    else if (action === "send") setSending([item]);
    else if (action === "delete") {
      Modal.confirm({
        title: t("disk.delete.confirm", { name: item.name }),
        content: t("disk.delete.hint"),
        okButtonProps: { danger: true },
        onOk: async () => {
          await trashDiskNode(item.id);
          await refresh();
        },
      });
    }
  };
  const sent = (results: DiskSentFile[]) => {
    setSending([]);
    const done = results.filter((result) => result.story).length;
    if (done > 0) message.success(t("disk.send.done", { count: done }));
    for (const refused of results.filter((result) => result.error))
      message.error(t("disk.send.refused", { name: refused.name }));
  };
  // The way back up: the caller's root (own folders) or the shared folder they came through.
  const path = folder.data?.path ?? [];
  const ownTree = current === null || current.access === "owner";
  const crumbs = [...(ownTree ? [{ id: null as string | null, name: t("disk.root") }] : []), ...path];

  return (
    <div data-testid="net-disk">
      <Space wrap align="center" style={{ width: "100%", justifyContent: "space-between", marginBottom: 12 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t("route.source.ismpnetdisk")}
        </Typography.Title>
        <Space wrap>
          {footer ? null : (
            <Button icon={<CloudServerOutlined />} onClick={() => setConnecting(true)} data-testid="dav-connect-open">
              {t("disk.dav.connect")}
            </Button>
          )}
          <QuotaBar />
        </Space>
      </Space>
      {connecting ? <DavConnect open onClose={() => setConnecting(false)} /> : null}
      <Segmented<DiskView>
        value={view}
        onChange={(value) => {
          setView(value);
          if (value === "mine") open(null);
        }}
        options={(["mine", "shared", "trash"] as const).map((value) => ({ value, label: t(`disk.view.${value}`) }))}
        style={{ marginBottom: 12 }}
      />
      {view === "shared" ? (
        <SharedWithMe onOpen={(node) => (node.kind === "folder" ? open(node.id) : setPreviewing(node))} />
      ) : null}
      {view === "trash" ? <TrashList /> : null}
      {view === "mine" ? (
        <>
          <Space wrap style={{ width: "100%", justifyContent: "space-between", marginBottom: 8 }}>
            <Breadcrumb
              data-testid="disk-path"
              items={crumbs.map((step) => ({
                title: (
                  <Button type="link" size="small" style={{ padding: 0 }} onClick={() => open(step.id)}>
                    {step.name}
                  </Button>
                ),
              }))}
            />
            <Space wrap>
              <Button icon={<ReloadOutlined />} onClick={refresh} aria-label={t("disk.refresh")} />
              <Button
                icon={<FolderAddOutlined />}
                disabled={!canWrite}
                onClick={() => setNaming({ item: null })}
                data-testid="disk-new-folder"
              >
                {t("disk.newFolder")}
              </Button>
              <Button
                type="primary"
                icon={<UploadOutlined />}
                disabled={!canWrite}
                onClick={() => setUploading(true)}
                data-testid="disk-upload-open"
              >
                {t("disk.upload.open")}
              </Button>
            </Space>
          </Space>
          {chosen.length > 0 ? (
            <Space wrap style={{ marginBottom: 8 }}>
              <Typography.Text>{t("disk.selected", { count: chosen.length })}</Typography.Text>
              <Button size="small" onClick={() => setSending(chosen.filter((item) => item.kind === "file"))}>
                {t("disk.action.send")}
              </Button>
              {canWrite ? (
                <Button size="small" onClick={() => setMoving(chosen)}>
                  {t("disk.action.move")}
                </Button>
              ) : null}
            </Space>
          ) : null}
          <DiskTable
            items={items}
            loading={folder.isLoading}
            canShare={can(STORY_ACCESS.share)}
            selected={selected}
            onSelect={select}
            onAction={(action, item) => void act(action, item)}
          />
        </>
      ) : null}
      {footer}
      <NameDialog
        open={naming !== null}
        title={naming?.item ? t("disk.action.rename") : t("disk.newFolder")}
        initial={naming?.item?.name ?? ""}
        onCancel={() => setNaming(null)}
        onOk={async (name) => {
          if (naming?.item) await updateDiskNode(naming.item.id, { name });
          else await createDiskFolder(folderId, name);
          setNaming(null);
          await refresh();
        }}
      />
      <MoveDialog
        items={moving}
        top={ownTree ? null : (path[0]?.id ?? null)}
        onCancel={() => setMoving([])}
        onMove={async (parentId) => {
          for (const item of moving) await updateDiskNode(item.id, { parentId });
          setMoving([]);
          setSelected([]);
          await refresh();
        }}
      />
      <SendDialog items={sending} onSent={sent} onCancel={() => setSending([])} />
      <ShareDialog item={sharing} onClose={() => setSharing(null)} />
      <PreviewDialog item={previewing} onClose={() => setPreviewing(null)} />
      <DiskUpload open={uploading} folderId={folderId} onClose={() => setUploading(false)} />
    </div>
  );
}

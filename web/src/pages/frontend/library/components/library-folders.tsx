import { DeleteOutlined, EditOutlined, FolderAddOutlined, FolderOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Popconfirm, Skeleton, Space, Tooltip, Tree } from "antd";
import { type DragEvent, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { createFolder, deleteFolder, updateFolder, useFolders } from "../../../../api/folders";
import { moveStory, type Story, storyKeys } from "../../../../api/stories";
import { useAccess } from "../../../../auth/access-component";
import { useFeedback } from "../../../../components/feedback";
import {
  applyMove,
  type CatalogueNode,
  catalogueTree,
  findNode,
  moveOf,
} from "../../../../components/folder-tree/folder-tree";
import { NameDialog } from "../../../../components/folder-tree/name-dialog";
import { useFolderTreeEditing } from "../../../../components/folder-tree/use-folder-tree-editing";
import { STORY_ACCESS } from "../../../../components/story-actions";
import type { StorySelection } from "../../../../components/story-browser";
import { carriesStory, type DraggedStory, droppedStory } from "../../../../components/story-drag";
import { storyKey } from "../../../../components/story-grid";

type Dialog = { kind: "create"; parentId: string | null } | { kind: "rename"; folderId: string; name: string };

/** What a drop of `dragged` moves: the whole selection when the dragged story is one of it, else that story. */
export function storiesToMove(dragged: DraggedStory, selection: readonly Story[]): DraggedStory[] {
  return selection.some((story) => storyKey(story) === storyKey(dragged))
    ? selection.map((story) => ({ libraryId: story.libraryId, storyId: story.storyId, type: story.type }))
    : [dragged];
}

/**
 * The folder tree beside a library's grid: the library at the top, its
 * folders below. A click opens a folder (the URL and breadcrumb follow).
 * Those who may manage the library's folders (story.list add/edit/delete and
 * the manage level) create, rename, delete them and drag them to move;
 * those who may edit stories drop stories on a folder to file them there.
 */
export function LibraryFolders({
  libraryId,
  libraryName,
  level,
  folderId,
  selection,
  onOpenFolder,
}: {
  libraryId: string;
  libraryName: string;
  level: string | undefined;
  folderId: string | undefined;
  selection: StorySelection;
  onOpenFolder: (folderId: string | null) => void;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const allowed = useAccess();
  const queryClient = useQueryClient();
  const folders = useFolders(libraryId || undefined);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [dropKey, setDropKey] = useState<string | null>(null);
  /** The folder being dragged in the tree (antd gives the library's node, which is not draggable, no drop handlers). */
  const [draggedFolder, setDraggedFolder] = useState<CatalogueNode | null>(null);
  const rootKey = `library:${libraryId}`;
  const tree = useMemo(
    () => catalogueTree([{ id: libraryId, name: libraryName }], () => folders.data ?? []),
    [libraryId, libraryName, folders.data],
  );
  const manages = level === "manage";
  const may = {
    create: manages && allowed("story.list.add"),
    rename: manages && allowed("story.list.edit"),
    delete: manages && allowed("story.list.delete"),
    file: (level === "write" || level === "manage") && allowed(STORY_ACCESS.edit),
  };
  const editing = useFolderTreeEditing(tree);
  const { expandedKeys, setExpanded, open } = editing;
  const current = folderId ? findNode(tree, folderId) : undefined;
  /** Runs a change of this library's folders (useFolderTreeEditing). */
  const change = (write: () => Promise<unknown>, done: string) => editing.change(libraryId, write, done);
  const onFolderDrop = editing.dropFolder(t("library.folderMoveRefused"));

  const fileStories = async (target: CatalogueNode, dragged: DraggedStory) => {
    const stories = storiesToMove(dragged, selection.stories).filter((story) => story.libraryId === libraryId);
    if (stories.length === 0) return;
    const results = await Promise.allSettled(stories.map((story) => moveStory(story, target.folderId)));
    const failed = results.filter((result) => result.status === "rejected").length;
    if (failed === 0) {
      message.success(t("library.storiesFiled", { count: stories.length, folder: target.title }));
      selection.clear();
    }
    await queryClient.invalidateQueries({ queryKey: storyKeys.all });
  };

  /** The library's own node takes a dragged folder: it moves to the top level. */
  const dropFolderOnLibrary = async (library: CatalogueNode) => {
    const dragged = draggedFolder;
    setDraggedFolder(null);
    const move = dragged ? moveOf(tree, dragged, library, { dropToGap: false, before: false }) : null;
    if (!move) return;
    await change(() => applyMove(move, updateFolder), t("folderAdmin.moved"));
  };

  /** A folder's title, which takes dropped stories when the user may file them (and the library's, folders). */
  const title = (node: CatalogueNode) => {
    const takesFolder = () => node.folderId === null && draggedFolder !== null && may.rename;
    const handlers =
      may.file || (node.folderId === null && may.rename)
        ? {
            onDragOver: (event: DragEvent) => {
              if (!(may.file && carriesStory(event)) && !takesFolder()) return;
              event.preventDefault();
              event.stopPropagation();
              event.dataTransfer.dropEffect = "move";
              if (dropKey !== node.key) setDropKey(node.key);
            },
            onDragLeave: () => setDropKey((key) => (key === node.key ? null : key)),
            onDrop: (event: DragEvent) => {
              setDropKey(null);
              if (takesFolder()) {
                event.preventDefault();
                event.stopPropagation();
                void dropFolderOnLibrary(node);
                return;
              }
              const dragged = may.file ? droppedStory(event) : null;
              if (!dragged) return;
              event.preventDefault();
              event.stopPropagation();
              void fileStories(node, dragged);
            },
          }
        : {};
    return (
      <span
        {...handlers}
        data-testid="folder-node"
        data-folder={node.folderId ?? ""}
        style={{
          display: "inline-block",
          padding: "0 4px",
          borderRadius: 4,
          outline: dropKey === node.key ? "2px dashed #1677ff" : undefined,
        }}
      >
        <FolderOutlined style={{ marginRight: 6 }} />
        {node.title}
      </span>
    );
  };

  if (folders.isLoading) return <Skeleton active />;
  if (folders.isError) return <Alert type="error" message={t("library.foldersFailed")} />;
  return (
    <nav aria-label={t("library.folders")} data-testid="folder-tree">
      {may.create || may.rename || may.delete ? (
        <Space size={4} wrap style={{ marginBottom: 8 }}>
          {may.create ? (
            <Tooltip title={t("library.folderCreate")}>
              <Button
                size="small"
                icon={<FolderAddOutlined />}
                aria-label={t("library.folderCreate")}
                data-testid="folder-create"
                onClick={() => setDialog({ kind: "create", parentId: folderId ?? null })}
              />
            </Tooltip>
          ) : null}
          {may.rename && current ? (
            <Tooltip title={t("folderAdmin.rename")}>
              <Button
                size="small"
                icon={<EditOutlined />}
                aria-label={t("folderAdmin.rename")}
                data-testid="folder-rename"
                onClick={() => setDialog({ kind: "rename", folderId: current.key, name: current.title })}
              />
            </Tooltip>
          ) : null}
          {may.delete && current ? (
            <Popconfirm
              title={t("library.folderDeleteConfirm", { name: current.title })}
              okText={t("crud.ok")}
              cancelText={t("crud.cancel")}
              onConfirm={async () => {
                const parentId = current.parentId;
                if (await change(() => deleteFolder(libraryId, current.key), t("crud.deleted"))) {
                  onOpenFolder(parentId);
                }
              }}
            >
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t("crud.delete")}
                data-testid="folder-delete"
              />
            </Popconfirm>
          ) : null}
        </Space>
      ) : null}
      <Tree<CatalogueNode>
        blockNode
        draggable={
          may.rename
            ? { icon: false, nodeDraggable: (node) => (node as unknown as CatalogueNode).folderId !== null }
            : false
        }
        treeData={tree}
        expandedKeys={expandedKeys}
        onExpand={(keys) => setExpanded(keys.map(String))}
        selectedKeys={[folderId ?? rootKey]}
        titleRender={title}
        onSelect={(_, info) => onOpenFolder(info.node.folderId)}
        onDrop={onFolderDrop}
        onDragStart={({ node }) => setDraggedFolder(node)}
        onDragEnd={() => setDraggedFolder(null)}
      />
      {(folders.data ?? []).length === 0 ? <Alert type="info" message={t("library.noFolders")} /> : null}
      {dialog ? (
        <NameDialog
          title={dialog.kind === "create" ? t("library.folderCreate") : t("folderAdmin.rename")}
          label={t("library.folderName")}
          initial={dialog.kind === "rename" ? dialog.name : undefined}
          onClose={() => setDialog(null)}
          onSubmit={(name) =>
            dialog.kind === "create"
              ? change(async () => {
                  const made = await createFolder(libraryId, { name, parentId: dialog.parentId });
                  open(dialog.parentId ?? rootKey);
                  onOpenFolder(made.id);
                }, t("crud.saved"))
              : change(() => updateFolder(libraryId, dialog.folderId, { name }), t("crud.saved"))
          }
        />
      ) : null}
    </nav>
  );
}

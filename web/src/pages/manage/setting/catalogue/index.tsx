import { DeleteOutlined, EditOutlined, FolderAddOutlined } from "@ant-design/icons";
import { useQueries } from "@tanstack/react-query";
import { Button, Card, Empty, Popconfirm, Space, Spin, Tree, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { createFolder, deleteFolder, fetchFolders, folderKeys, updateFolder } from "../../../../api/folders";
import { useLibraries } from "../../../../api/libraries";
import { type CatalogueNode, catalogueTree } from "../../../../components/folder-tree/folder-tree";
import { NameDialog } from "../../../../components/folder-tree/name-dialog";
import { useFolderTreeEditing } from "../../../../components/folder-tree/use-folder-tree-editing";

type Dialog = { kind: "create"; under: CatalogueNode } | { kind: "rename"; node: CatalogueNode };

/** /manage/setting/catalogue (目录): every library's folder tree; create, rename, move by dragging, delete. */
export default function ManageSettingCataloguePage() {
  const { t } = useTranslation();
  const libraries = useLibraries();
  const trees = useQueries({
    queries: (libraries.data ?? []).map((library) => ({
      queryKey: folderKeys.tree(library.id),
      queryFn: () => fetchFolders(library.id),
    })),
  });
  const tree = useMemo(
    () =>
      catalogueTree(libraries.data ?? [], (libraryId) => {
        const index = (libraries.data ?? []).findIndex((library) => library.id === libraryId);
        return trees[index]?.data;
      }),
    [libraries.data, trees],
  );
  const [selected, setSelected] = useState<CatalogueNode | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  // Every node open until the administrator folds one; a node a folder is made or dropped in opens.
  const { expandedKeys, setExpanded, open, change, dropFolder } = useFolderTreeEditing(tree);
  const onDrop = dropFolder(t("folderAdmin.move.refused"));

  const loading = libraries.isPending || trees.some((query) => query.isPending);
  return (
    <Card
      title={t("folderAdmin.title")}
      extra={
        <Space wrap>
          <Button
            type="primary"
            icon={<FolderAddOutlined />}
            disabled={!selected}
            onClick={() => selected && setDialog({ kind: "create", under: selected })}
          >
            {t("folderAdmin.create")}
          </Button>
          <Button
            icon={<EditOutlined />}
            disabled={!selected?.folderId}
            onClick={() => selected && setDialog({ kind: "rename", node: selected })}
          >
            {t("folderAdmin.rename")}
          </Button>
          <Popconfirm
            title={t("folderAdmin.delete.confirm")}
            okText={t("crud.ok")}
            cancelText={t("crud.cancel")}
            disabled={!selected?.folderId}
            onConfirm={async () => {
              if (!selected?.folderId) return;
              const target = selected;
              if (
                await change(
                  target.libraryId,
                  () => deleteFolder(target.libraryId, target.folderId!),
                  t("crud.deleted"),
                )
              ) {
                setSelected(null);
              }
            }}
          >
            <Button danger icon={<DeleteOutlined />} disabled={!selected?.folderId}>
              {t("crud.delete")}
            </Button>
          </Popconfirm>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t("folderAdmin.help")}</Typography.Paragraph>
      {loading ? (
        <Spin />
      ) : tree.length === 0 ? (
        <Empty />
      ) : (
        <Tree<CatalogueNode>
          blockNode
          draggable={{ icon: false, nodeDraggable: (node) => (node as unknown as CatalogueNode).folderId !== null }}
          treeData={tree}
          expandedKeys={expandedKeys}
          onExpand={(keys) => setExpanded(keys.map(String))}
          selectedKeys={selected ? [selected.key] : []}
          onSelect={(_, info) => setSelected(info.selected ? info.node : null)}
          onDrop={onDrop}
        />
      )}
      {dialog ? (
        <NameDialog
          title={dialog.kind === "create" ? t("folderAdmin.create") : t("folderAdmin.rename")}
          initial={dialog.kind === "rename" ? dialog.node.title : undefined}
          onClose={() => setDialog(null)}
          onSubmit={(name) => {
            if (dialog.kind === "create") open(dialog.under.key);
            return dialog.kind === "create"
              ? change(
                  dialog.under.libraryId,
                  () => createFolder(dialog.under.libraryId, { name, parentId: dialog.under.folderId }),
                  t("crud.saved"),
                )
              : change(
                  dialog.node.libraryId,
                  () => updateFolder(dialog.node.libraryId, dialog.node.folderId!, { name }),
                  t("crud.saved"),
                );
          }}
        />
      ) : null}
    </Card>
  );
}

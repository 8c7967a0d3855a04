import { useQueryClient } from "@tanstack/react-query";
import type { TreeProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { folderKeys, updateFolder } from "../../api/folders";
import { showRefusal } from "../crud-table";
import { useFeedback } from "../feedback";
import { applyMove, type CatalogueNode, moveOf } from "./folder-tree";

const allKeys = (nodes: readonly CatalogueNode[]): string[] =>
  nodes.flatMap((node) => [node.key, ...allKeys(node.children)]);

/**
 * Editing a folder tree, as the library's folder panel and the catalogue settings do: every node open until one is
 * folded (`open` opens one a folder is made or dropped in); a change run with its message, a refusal shown, and the
 * library's tree asked for again either way; and a folder dropped on another node moved there.
 */
export function useFolderTreeEditing(tree: readonly CatalogueNode[]) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const expandedKeys = expanded ?? allKeys(tree);
  const open = (key: string) => setExpanded((keys) => [...new Set([...(keys ?? allKeys(tree)), key])]);

  const change = async (libraryId: string, write: () => Promise<unknown>, done: string): Promise<boolean> => {
    try {
      await write();
      message.success(done);
      return true;
    } catch (error) {
      showRefusal(error, (text) => message.error(text));
      return false;
    } finally {
      await queryClient.invalidateQueries({ queryKey: folderKeys.tree(libraryId) });
    }
  };

  /** Moves a dropped folder, or says `refused` where it may not go. */
  const dropFolder =
    (refused: string): TreeProps<CatalogueNode>["onDrop"] =>
    async (info) => {
      const position = Number(info.node.pos.split("-").pop());
      const move = moveOf(tree, info.dragNode, info.node, {
        dropToGap: info.dropToGap,
        before: info.dropPosition < position,
      });
      if (!move) {
        message.warning(refused);
        return;
      }
      open(String(info.node.key));
      await change(move.libraryId, () => applyMove(move, updateFolder), t("folderAdmin.moved"));
    };

  return { expandedKeys, setExpanded, open, change, dropFolder };
}

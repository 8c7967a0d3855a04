import { Popconfirm, type PopconfirmProps } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Access } from "../auth/access-component";
import { STORY_ACCESS } from "./story-actions";

/**
 * A story delete's button (`children`), shown to who may delete stories and asking first; `onConfirm` deletes
 * (its promise keeps the confirm's OK busy).
 */
export function StoryDeleteConfirm({
  onConfirm,
  children,
}: {
  onConfirm: NonNullable<PopconfirmProps["onConfirm"]>;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Access action={STORY_ACCESS.delete}>
      <Popconfirm
        title={t("crud.deleteConfirm")}
        okText={t("crud.ok")}
        cancelText={t("crud.cancel")}
        onConfirm={onConfirm}
      >
        {children}
      </Popconfirm>
    </Access>
  );
}

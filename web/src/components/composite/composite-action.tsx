import { AppstoreAddOutlined, EditOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Story } from "../../api/stories";
import { Access } from "../../auth/access-component";
import { LazyPart, lazyChunk } from "../lazy-part";
import { STORY_ACCESS } from "../story-actions";

// The editor (TipTap, dnd-kit) loads when a composite is opened for editing.
const CompositeDialog = lazyChunk("composite-dialog", () =>
  import("./composite-dialog").then((m) => m.CompositeDialog),
);

/** 编辑组图 (a composite's viewer toolbar and list row) for those who may edit stories. */
export function EditCompositeAction({ story, link = false }: { story: Story; link?: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (story.type !== "composite") return null;
  return (
    <Access action={STORY_ACCESS.edit}>
      <Button
        type={link ? "link" : "default"}
        size={link ? "small" : "middle"}
        icon={link ? undefined : <EditOutlined />}
        onClick={() => setOpen(true)}
        data-testid="composite-edit"
      >
        {t("composite.edit")}
      </Button>
      {open ? (
        <LazyPart>
          <CompositeDialog target={{ kind: "edit", story }} onClose={() => setOpen(false)} />
        </LazyPart>
      ) : null}
    </Access>
  );
}

/** 新建组图 with no members yet (the story list's toolbar), for those who may create stories. */
export function NewCompositeAction({ onSaved }: { onSaved?: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Access action={STORY_ACCESS.commit}>
      <Button type="primary" icon={<AppstoreAddOutlined />} onClick={() => setOpen(true)} data-testid="composite-new">
        {t("composite.create")}
      </Button>
      {open ? (
        <LazyPart>
          <CompositeDialog target={{ kind: "create", members: [] }} onClose={() => setOpen(false)} onSaved={onSaved} />
        </LazyPart>
      ) : null}
    </Access>
  );
}

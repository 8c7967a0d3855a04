import { AppstoreAddOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Story } from "../../api/stories";
import { Access } from "../../auth/access-component";
import { LazyPart, lazyChunk } from "../lazy-part";
import { STORY_ACCESS } from "../story-actions";
import { StoryEditAction } from "../story-edit/story-edit-action";

// The editor (TipTap, dnd-kit) loads when a composite is opened for editing.
const CompositeDialog = lazyChunk("composite-dialog", () =>
  import("./composite-dialog").then((m) => m.CompositeDialog),
);

/** 编辑组图 (a composite's viewer toolbar and list row) for those who may edit stories. */
export function EditCompositeAction({ story, link = false }: { story: Story; link?: boolean }) {
  const { t } = useTranslation();
  if (story.type !== "composite") return null;
  return (
    <StoryEditAction
      link={link}
      label={t("composite.edit")}
      testId="composite-edit"
      dialog={(close) => (
        <LazyPart>
          <CompositeDialog target={{ kind: "edit", story }} onClose={close} />
        </LazyPart>
      )}
    />
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

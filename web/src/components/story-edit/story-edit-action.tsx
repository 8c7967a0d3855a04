import { EditOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { type ReactNode, useState } from "react";
import { Access } from "../../auth/access-component";
import { STORY_ACCESS } from "../story-actions";

/**
 * A story's edit button for those who may edit stories: a button with its icon in the viewer's toolbar, a small
 * link in a list row (`link`). While open it shows `dialog`, which gets the function that closes it.
 */
export function StoryEditAction({
  link,
  label,
  testId,
  dialog,
}: {
  link: boolean;
  label: string;
  testId: string;
  dialog: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Access action={STORY_ACCESS.edit}>
      <Button
        type={link ? "link" : "default"}
        size={link ? "small" : "middle"}
        icon={link ? undefined : <EditOutlined />}
        onClick={() => setOpen(true)}
        data-testid={testId}
      >
        {label}
      </Button>
      {open ? dialog(() => setOpen(false)) : null}
    </Access>
  );
}

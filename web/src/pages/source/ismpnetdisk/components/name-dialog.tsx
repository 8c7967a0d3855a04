import type { ButtonProps } from "antd";
import { Input, Modal } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/** Asks for a name: a new folder's, or an item's new one. */
export function NameDialog({
  open,
  title,
  initial,
  onOk,
  onCancel,
}: {
  open: boolean;
  title: string;
  initial: string;
  onOk: (name: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) setName(initial);
  }, [open, initial]);
  const submit = async () => {
    if (!name.trim()) return;
    setBusy(true);
    try {
      await onOk(name.trim());
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={title}
      onOk={submit}
      onCancel={onCancel}
      confirmLoading={busy}
      okButtonProps={{ disabled: !name.trim(), "data-testid": "disk-name-ok" } as ButtonProps}
      destroyOnHidden
    >
      <Input
        autoFocus
        aria-label={t("disk.name")}
        data-testid="disk-name-input"
        value={name}
        maxLength={255}
        onChange={(event) => setName(event.target.value)}
        onPressEnter={submit}
      />
    </Modal>
  );
}

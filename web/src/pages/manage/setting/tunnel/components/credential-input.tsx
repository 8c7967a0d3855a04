import { Button, Input, Space, Tag } from "antd";
import type { TFunction } from "i18next";
import { useState } from "react";

/**
 * A write-only credential: the server only says whether it holds a value. The form value is `undefined`
 * (keep what is stored), a string (set it) or `null` (clear it); the stored value is never shown.
 */
export function CredentialInput({
  t,
  isSet,
  multiline,
  value,
  onChange,
  id,
}: {
  t: TFunction;
  isSet: boolean;
  multiline?: boolean;
  value?: string | null;
  onChange?: (value: string | null | undefined) => void;
  id?: string;
}) {
  const [replacing, setReplacing] = useState(false);
  if (isSet && value === null) {
    return (
      <Space wrap>
        <Tag color="orange">{t("channels.credential.willClear")}</Tag>
        <Button size="small" onClick={() => onChange?.(undefined)}>
          {t("channels.credential.undo")}
        </Button>
      </Space>
    );
  }
  if (isSet && !replacing) {
    return (
      <Space wrap>
        <Tag color="green">{t("channels.credential.set")}</Tag>
        <Button size="small" onClick={() => setReplacing(true)}>
          {t("channels.credential.replace")}
        </Button>
        <Button size="small" danger onClick={() => onChange?.(null)}>
          {t("channels.credential.clear")}
        </Button>
      </Space>
    );
  }
  const field = multiline ? (
    <Input.TextArea
      id={id}
      rows={4}
      autoComplete="off"
      spellCheck={false}
      value={value ?? ""}
      placeholder={t("channels.credential.placeholder")}
      onChange={(event) => onChange?.(event.target.value || undefined)}
    />
  ) : (
    <Input.Password
      id={id}
      autoComplete="new-password"
      value={value ?? ""}
      placeholder={t("channels.credential.placeholder")}
      onChange={(event) => onChange?.(event.target.value || undefined)}
    />
  );
  return isSet ? (
    <Space.Compact style={{ width: "100%" }} direction={multiline ? "vertical" : "horizontal"}>
      {field}
      <Button
        onClick={() => {
          setReplacing(false);
          onChange?.(undefined);
        }}
      >
        {t("channels.credential.keep")}
      </Button>
    </Space.Compact>
  ) : (
    field
  );
}

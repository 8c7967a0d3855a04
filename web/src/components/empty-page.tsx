import { Empty } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** The empty state of a page whose content a later issue brings. */
export function EmptyPage({
  messageKey,
  params,
  children,
}: {
  messageKey: string;
  params?: Record<string, string>;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div style={{ padding: "48px 0" }}>
      <Empty description={t(messageKey, params)}>{children}</Empty>
    </div>
  );
}

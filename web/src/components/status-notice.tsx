import { CloseCircleFilled, ExclamationCircleFilled } from "@ant-design/icons";
import { Typography, theme } from "antd";
import type { ReactNode } from "react";

/**
 * An icon, a title and a line: what antd's Result shows for 'error' and
 * 'warning', without Result's module, which carries its three large
 * illustrations into every page that shows a failure.
 */
export function StatusNotice({
  status,
  title,
  subTitle,
  extra,
}: {
  status: "error" | "warning";
  title: ReactNode;
  subTitle?: ReactNode;
  extra?: ReactNode;
}) {
  const { token } = theme.useToken();
  const Icon = status === "error" ? CloseCircleFilled : ExclamationCircleFilled;
  return (
    <div role="alert" style={{ padding: "48px 32px", textAlign: "center" }}>
      <Icon style={{ fontSize: 72, color: status === "error" ? token.colorError : token.colorWarning }} />
      <Typography.Title level={4} style={{ marginTop: 24 }}>
        {title}
      </Typography.Title>
      {subTitle ? <Typography.Text type="secondary">{subTitle}</Typography.Text> : null}
      {extra ? <div style={{ marginTop: 24 }}>{extra}</div> : null}
    </div>
  );
}

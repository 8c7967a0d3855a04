import { Card, Typography } from "antd";
import type { ReactNode } from "react";

/** The card the sign-in, register and register-result pages sit in. */
export function AuthCard({ title, subtitle, children }: { title?: string; subtitle?: string; children: ReactNode }) {
  return (
    <Card style={{ maxWidth: 400, margin: "0 auto", boxShadow: "0 6px 24px rgba(0, 0, 0, 0.08)" }}>
      {title ? (
        <div style={{ marginBottom: 24 }}>
          <Typography.Title level={3} style={{ marginTop: 0, marginBottom: 4 }}>
            {title}
          </Typography.Title>
          {subtitle ? <Typography.Text type="secondary">{subtitle}</Typography.Text> : null}
        </div>
      ) : null}
      {children}
    </Card>
  );
}

import { Space, Tag } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { DELIVERY_STATE_COLORS, type Delivery } from "../api/publishing";

/**
 * A delivery's state and, for a withdrawal, its mark — as the publish monitor and the viewer's 发布记录 tab show
 * it (the monitor's strings: its chunk is loaded by both). `children` follow them (the monitor's "sent at").
 */
export function DeliveryStateTags({
  delivery,
  testId,
  children,
}: {
  delivery: Pick<Delivery, "state" | "action">;
  testId: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap>
      <Tag color={DELIVERY_STATE_COLORS[delivery.state]} data-testid={testId}>
        {t(`publish.state.${delivery.state}`)}
      </Tag>
      {delivery.action === "kill" ? <Tag color="red">{t("monitor.publish.kill")}</Tag> : null}
      {children}
    </Space>
  );
}

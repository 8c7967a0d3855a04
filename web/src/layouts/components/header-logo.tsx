import { useQuery } from "@tanstack/react-query";
import { Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { fetchUsedInfo, statisticsKeys } from "../../api/statistics";
import type { Area } from "../settings";

const COUNTS = ["photo", "video", "audio", "composite"] as const;

/** The header logo: links to the area's home; in the front area it shows the asset counts. */
export function HeaderLogo({ area, compact, onDark }: { area: Area; compact: boolean; onDark: boolean }) {
  const { t } = useTranslation();
  const usedInfo = useQuery({
    queryKey: statisticsKeys.usedInfo(),
    queryFn: fetchUsedInfo,
    enabled: area === "front",
    retry: false,
  });
  return (
    <Link
      to={area === "front" ? "/frontend" : "/backend"}
      data-testid="header-logo"
      style={{ color: onDark ? "#fff" : "rgba(0,0,0,0.88)" }}
    >
      <Space size={12} align="center">
        <span style={{ fontWeight: 600, fontSize: 18 }}>{t("app.title")}</span>
        {area === "front" && usedInfo.data && !compact ? (
          <Typography.Text style={{ fontSize: 12, color: "inherit", opacity: 0.75 }} data-testid="asset-counts">
            {COUNTS.map((kind) => `${t(`layout.stats.${kind}`)} ${usedInfo.data[kind]}`).join(" · ")}
          </Typography.Text>
        ) : null}
      </Space>
    </Link>
  );
}

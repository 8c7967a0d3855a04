import { Col, Empty, Modal, Row, Segmented, Slider, Space, Table, Tag, Typography } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Story } from "../../api/stories";
import type { StoryVersion } from "../../api/story-detail";
import { useStoryActions } from "../../api/story-detail";
import { versionAuthors, versionDifferences, versionImage } from "./version-diff";

const FRAME = { width: "100%", height: "min(50vh, 420px)", objectFit: "contain", background: "#000" } as const;

/** Two versions of a story compared: images side by side or under a swipe divider, and their fields. */
export function VersionCompare({
  story,
  versions,
  onClose,
}: {
  story: Story;
  versions: [StoryVersion, StoryVersion] | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={versions !== null}
      onCancel={onClose}
      footer={null}
      width="min(1100px, 96vw)"
      destroyOnHidden
      title={versions ? t("viewerMedia.compare.title", { a: versions[0].versionNo, b: versions[1].versionNo }) : null}
      data-testid="version-compare"
    >
      {versions ? <Comparison story={story} a={versions[0]} b={versions[1]} /> : null}
    </Modal>
  );
}

function Comparison({ story, a, b }: { story: Story; a: StoryVersion; b: StoryVersion }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<"sideBySide" | "swipe">("sideBySide");
  const actions = useStoryActions(story, 500);
  const rows = versionDifferences(a, b, versionAuthors(actions.data?.content ?? []), (iso) =>
    dayjs(iso).format("YYYY-MM-DD HH:mm:ss"),
  );
  const imageA = versionImage(a);
  const imageB = versionImage(b);
  return (
    <Space direction="vertical" style={{ width: "100%" }} size="middle">
      {imageA || imageB ? (
        <>
          <Segmented
            value={mode}
            onChange={(value) => setMode(value as typeof mode)}
            options={[
              { value: "sideBySide", label: t("viewerMedia.compare.sideBySide") },
              { value: "swipe", label: t("viewerMedia.compare.swipe"), disabled: !imageA || !imageB },
            ]}
          />
          {mode === "swipe" && imageA && imageB ? (
            <Swipe a={a.versionNo} b={b.versionNo} imageA={imageA} imageB={imageB} />
          ) : (
            <Row gutter={12}>
              {[
                { version: a, image: imageA },
                { version: b, image: imageB },
              ].map(({ version, image }) => (
                <Col span={12} key={version.versionNo}>
                  <Typography.Text strong>{t("stories.viewer.versionNo", { no: version.versionNo })}</Typography.Text>
                  {image ? (
                    <img
                      src={image}
                      alt={t("stories.viewer.versionNo", { no: version.versionNo })}
                      data-testid={`compare-image-${version.versionNo}`}
                      style={{ ...FRAME, display: "block", marginTop: 4 }}
                    />
                  ) : (
                    <Empty description={t("viewerMedia.compare.noImage")} />
                  )}
                </Col>
              ))}
            </Row>
          )}
        </>
      ) : null}
      <Typography.Text type="secondary" data-testid="compare-summary">
        {t("viewerMedia.compare.differences", { count: rows.filter((row) => row.different).length })}
      </Typography.Text>
      <Table
        size="small"
        pagination={false}
        rowKey="field"
        data-testid="compare-fields"
        dataSource={rows}
        onRow={(row) => ({ "data-field": row.field, "data-different": String(row.different) }) as object}
        columns={[
          {
            title: t("viewerMedia.compare.field"),
            dataIndex: "field",
            render: (field) => t(`viewerMedia.compare.${field}`),
          },
          {
            title: t("stories.viewer.versionNo", { no: a.versionNo }),
            dataIndex: "a",
            render: (value: string) => <Typography.Text style={{ wordBreak: "break-all" }}>{value}</Typography.Text>,
          },
          {
            title: t("stories.viewer.versionNo", { no: b.versionNo }),
            dataIndex: "b",
            render: (value: string) => <Typography.Text style={{ wordBreak: "break-all" }}>{value}</Typography.Text>,
          },
          {
            title: "",
            dataIndex: "different",
            width: 90,
            render: (different: boolean) =>
              different ? (
                <Tag color="orange">{t("viewerMedia.compare.different")}</Tag>
              ) : (
                <Tag>{t("viewerMedia.compare.same")}</Tag>
              ),
          },
        ]}
      />
    </Space>
  );
}

/** Version b over version a, cut at the divider: drag the slider to move it. */
function Swipe({ a, b, imageA, imageB }: { a: number; b: number; imageA: string; imageB: string }) {
  const { t } = useTranslation();
  const [position, setPosition] = useState(50);
  return (
    <div data-testid="compare-swipe">
      <div style={{ position: "relative" }}>
        <img src={imageA} alt={t("stories.viewer.versionNo", { no: a })} style={{ ...FRAME, display: "block" }} />
        <img
          src={imageB}
          alt={t("stories.viewer.versionNo", { no: b })}
          style={{ ...FRAME, position: "absolute", inset: 0, clipPath: `inset(0 0 0 ${position}%)` }}
        />
        <div
          style={{
            position: "absolute",
            top: 0,
            bottom: 0,
            left: `${position}%`,
            width: 2,
            background: "#fff",
            boxShadow: "0 0 4px rgba(0,0,0,.6)",
            pointerEvents: "none",
          }}
        />
      </div>
      <Row justify="space-between">
        <Typography.Text>{t("stories.viewer.versionNo", { no: a })}</Typography.Text>
        <Typography.Text>{t("stories.viewer.versionNo", { no: b })}</Typography.Text>
      </Row>
      <Slider
        value={position}
        onChange={setPosition}
        min={0}
        max={100}
        tooltip={{ formatter: (value) => `${value}%` }}
        aria-label={t("viewerMedia.compare.swipePosition")}
      />
    </div>
  );
}

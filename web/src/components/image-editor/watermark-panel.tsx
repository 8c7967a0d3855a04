import { UploadOutlined } from "@ant-design/icons";
import { WATERMARK_FONTS, WATERMARK_POSITIONS } from "@shared/watermark";
import { Button, ColorPicker, Form, Input, InputNumber, Radio, Select, Slider, Space, Typography, Upload } from "antd";
import { useTranslation } from "react-i18next";
import { useFeedback } from "../feedback";
import { loadImage } from "./operations";
import type { WatermarkParams } from "./params";
import { acceptAttribute, isAcceptedImage, WATERMARK_IMAGE_EXTENSIONS } from "./rules";
import { blobToDataUrl } from "./save-version";

const numberOr = (value: number | null, fallback: number): number => (typeof value === "number" ? value : fallback);

export function WatermarkPanel({
  params,
  onChange,
}: {
  params: WatermarkParams;
  onChange: (params: WatermarkParams) => void;
}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const set = (patch: Partial<WatermarkParams>) => onChange({ ...params, ...patch });

  const pickImage = async (file: File) => {
    if (!isAcceptedImage(file, WATERMARK_IMAGE_EXTENSIONS)) {
      message.warning(t("imageEditor.notImage"));
      return;
    }
    // A data URL keeps the operation a plain description that save can re-apply.
    const imageUrl = await blobToDataUrl(file);
    const image = await loadImage(imageUrl);
    set({ imageUrl, imageWidth: image.naturalWidth, imageHeight: image.naturalHeight, imageType: file.type });
  };

  return (
    <>
      <Form.Item label={t("imageEditor.watermark.type")}>
        <Radio.Group
          value={params.type}
          onChange={(event) => set({ type: event.target.value as 1 | 2 })}
          options={[
            { value: 1, label: t("imageEditor.watermark.image") },
            { value: 2, label: t("imageEditor.watermark.text") },
          ]}
        />
      </Form.Item>
      {params.type === 1 ? (
        <>
          <Form.Item label={t("imageEditor.watermark.image")}>
            <Space>
              <Upload
                accept={acceptAttribute(WATERMARK_IMAGE_EXTENSIONS)}
                showUploadList={false}
                beforeUpload={(file) => {
                  void pickImage(file);
                  return false;
                }}
              >
                <Button icon={<UploadOutlined />} data-testid="watermark-image-pick">
                  {t("imageEditor.watermark.pickImage")}
                </Button>
              </Upload>
              {params.imageUrl ? (
                <Typography.Text type="secondary">
                  {params.imageWidth} × {params.imageHeight}
                </Typography.Text>
              ) : null}
            </Space>
          </Form.Item>
          <Form.Item label={t("imageEditor.watermark.size")}>
            <Slider
              min={1}
              max={100}
              value={params.sizePercent}
              onChange={(sizePercent: number) => set({ sizePercent })}
            />
          </Form.Item>
        </>
      ) : (
        <>
          <Form.Item label={t("imageEditor.watermark.textContent")}>
            <Input.TextArea
              aria-label={t("imageEditor.watermark.textContent")}
              value={params.text}
              autoSize={{ minRows: 1, maxRows: 3 }}
              onChange={(event) => set({ text: event.target.value })}
            />
          </Form.Item>
          <Space wrap>
            <Form.Item label={t("imageEditor.watermark.textWidth")}>
              <InputNumber
                aria-label={t("imageEditor.watermark.textWidth")}
                min={1}
                precision={0}
                value={params.textWidth}
                onChange={(value) => set({ textWidth: numberOr(value, params.textWidth) })}
              />
            </Form.Item>
            <Form.Item label={t("imageEditor.watermark.fontSize")}>
              {/* No min/max: a size outside 1..1000 is refused silently on confirm (spec section 5). */}
              <InputNumber
                aria-label={t("imageEditor.watermark.fontSize")}
                precision={0}
                value={params.fontSize}
                onChange={(value) => set({ fontSize: numberOr(value, Number.NaN) })}
              />
            </Form.Item>
          </Space>
          <Form.Item label={t("imageEditor.watermark.fontFamily")}>
            <Select
              aria-label={t("imageEditor.watermark.fontFamily")}
              value={params.fontFamily}
              onChange={(fontFamily: string) => set({ fontFamily })}
              options={WATERMARK_FONTS.map((font) => ({
                value: font,
                label: <span style={{ fontFamily: font }}>{font}</span>,
              }))}
            />
          </Form.Item>
          <Space>
            <Form.Item label={t("imageEditor.watermark.color")}>
              <ColorPicker value={params.color} onChange={(color) => set({ color: color.toHexString() })} />
            </Form.Item>
            <Form.Item label={t("imageEditor.watermark.background")}>
              <ColorPicker value={params.background} onChange={(color) => set({ background: color.toHexString() })} />
            </Form.Item>
          </Space>
        </>
      )}
      <Form.Item label={t("imageEditor.watermark.position")}>
        <Radio.Group
          value={params.position}
          onChange={(event) => set({ position: event.target.value })}
          optionType="button"
          size="small"
          options={WATERMARK_POSITIONS.map((position) => ({
            value: position,
            label: t(`imageEditor.watermark.positions.${position}`),
          }))}
        />
      </Form.Item>
      {params.position === "arbitrary" ? (
        <Space>
          {/* No min/max: outside the image the confirm is refused silently (spec section 5). */}
          {(["x", "y"] as const).map((axis) => (
            <Form.Item key={axis} label={axis}>
              <InputNumber
                aria-label={axis}
                precision={0}
                value={params[axis]}
                onChange={(value) => set({ [axis]: numberOr(value, Number.NaN) })}
              />
            </Form.Item>
          ))}
        </Space>
      ) : null}
      <Form.Item label={t("imageEditor.watermark.opacity")}>
        <Slider min={1} max={100} value={params.opacity} onChange={(opacity: number) => set({ opacity })} />
      </Form.Item>
    </>
  );
}

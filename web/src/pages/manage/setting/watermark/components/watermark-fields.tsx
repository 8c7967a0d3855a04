import { UploadOutlined } from "@ant-design/icons";
import {
  ProFormDependency,
  ProFormDigit,
  ProFormRadio,
  ProFormSelect,
  ProFormSlider,
  ProFormText,
} from "@ant-design/pro-components";
import { WATERMARK_FONTS, WATERMARK_POSITIONS } from "@shared/watermark";
import { Button, ColorPicker, Form, Space, Typography, Upload } from "antd";
import type { TFunction } from "i18next";
import type { WatermarkImage, WatermarkPreset } from "../../../../../api/presets";
import { useFeedback } from "../../../../../components/feedback";
import {
  acceptAttribute,
  isAcceptedImage,
  WATERMARK_IMAGE_EXTENSIONS,
} from "../../../../../components/image-editor/file-types";
import { NameField } from "../../catalogue-shared/fields";

const S = (field: string) => ["settings", field];

/** Reads a picked file as base64 (the part of its data URL after the comma). */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** A colour field: antd's picker, kept as #rrggbb in the form. */
function ColourField({ name, label }: { name: string[]; label: string }) {
  return (
    <Form.Item
      name={name}
      label={label}
      getValueFromEvent={(colour: { toHexString: () => string }) => colour.toHexString().slice(0, 7)}
    >
      <ColorPicker disabledAlpha showText />
    </Form.Item>
  );
}

function ImageField({ t, record }: { t: TFunction; record?: WatermarkPreset }) {
  const form = Form.useFormInstance();
  const { message } = useFeedback();
  const picked = Form.useWatch("image", form) as WatermarkImage | null | undefined;
  return (
    <Form.Item label={t("imageEditor.watermark.image")} required>
      <Space wrap>
        <Upload
          accept={acceptAttribute(WATERMARK_IMAGE_EXTENSIONS)}
          showUploadList={false}
          beforeUpload={(file) => {
            if (!isAcceptedImage(file, WATERMARK_IMAGE_EXTENSIONS)) {
              message.warning(t("imageEditor.notImage"));
              return false;
            }
            void readBase64(file).then((data) =>
              form.setFieldValue("image", { data, type: file.type === "image/png" ? "image/png" : "image/jpeg" }),
            );
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} data-testid="watermark-preset-image">
            {t("imageEditor.watermark.pickImage")}
          </Button>
        </Upload>
        <Typography.Text type="secondary" data-testid="watermark-preset-image-state">
          {picked
            ? t("presets.watermark.imagePicked")
            : picked === undefined && record?.image
              ? `${record.image.width} × ${record.image.height}`
              : t("presets.watermark.noImage")}
        </Typography.Text>
      </Space>
      <Form.Item name="image" hidden noStyle>
        <span />
      </Form.Item>
    </Form.Item>
  );
}

/** The watermark settings of spec section 3, with section 5's limits. */
export function WatermarkFields({ t, record }: { t: TFunction; record?: WatermarkPreset }) {
  return (
    <>
      <NameField t={t} />
      <ProFormRadio.Group
        name={S("type")}
        label={t("imageEditor.watermark.type")}
        options={[
          { value: 1, label: t("imageEditor.watermark.image") },
          { value: 2, label: t("imageEditor.watermark.text") },
        ]}
      />
      <ProFormDependency name={[S("type")]}>
        {({ settings }) =>
          settings?.type === 2 ? (
            <>
              <ProFormText
                name={S("text")}
                label={t("imageEditor.watermark.textContent")}
                rules={[
                  { required: true, whitespace: true, message: t("imageEditor.watermark.required") },
                  {
                    validator: async (_, value: string | undefined) => {
                      if ([...(value ?? "")].length > 100) throw new Error(t("imageEditor.watermark.tooLong"));
                    },
                  },
                ]}
              />
              <Space wrap>
                <ProFormDigit
                  name={S("fontSize")}
                  label={t("imageEditor.watermark.fontSize")}
                  min={1}
                  max={1000}
                  fieldProps={{ precision: 0 }}
                />
                <ProFormDigit
                  name={S("textWidth")}
                  label={t("imageEditor.watermark.textWidth")}
                  min={1}
                  max={20000}
                  fieldProps={{ precision: 0 }}
                />
              </Space>
              <ProFormSelect
                name={S("fontFamily")}
                label={t("imageEditor.watermark.fontFamily")}
                options={WATERMARK_FONTS.map((font) => ({ value: font, label: font }))}
              />
              <Space wrap>
                <ColourField name={S("color")} label={t("imageEditor.watermark.color")} />
                <ColourField name={S("background")} label={t("imageEditor.watermark.background")} />
              </Space>
            </>
          ) : (
            <>
              <ImageField t={t} record={record} />
              <ProFormSlider name={S("sizePercent")} label={t("imageEditor.watermark.size")} min={1} max={100} />
            </>
          )
        }
      </ProFormDependency>
      <ProFormSelect
        name={S("position")}
        label={t("imageEditor.watermark.position")}
        options={WATERMARK_POSITIONS.map((position) => ({
          value: position,
          label: t(`imageEditor.watermark.positions.${position}`),
        }))}
      />
      <ProFormDependency name={[S("position")]}>
        {({ settings }) =>
          settings?.position === "arbitrary" ? (
            <Space wrap>
              <ProFormDigit name={S("x")} label="x" min={0} max={100000} fieldProps={{ precision: 0 }} />
              <ProFormDigit name={S("y")} label="y" min={0} max={100000} fieldProps={{ precision: 0 }} />
            </Space>
          ) : null
        }
      </ProFormDependency>
      <ProFormSlider name={S("opacity")} label={t("imageEditor.watermark.opacity")} min={1} max={100} />
    </>
  );
}

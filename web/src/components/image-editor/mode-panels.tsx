import { RotateLeftOutlined, RotateRightOutlined, SwapOutlined } from "@ant-design/icons";
import { Button, Checkbox, Form, InputNumber, Radio, Slider, Space } from "antd";
import { useTranslation } from "react-i18next";
import type { ColourParams, RotateParams } from "./params";
import {
  COLOUR_MAX,
  COLOUR_MIN,
  CROP_ASPECTS,
  type CropAspect,
  maxResizePercent,
  type ResizeState,
  ROTATION_MAX,
  ROTATION_MIN,
  resizeHeight,
  resizePercent,
  resizeWidth,
  SHARPEN_MAX,
  SHARPEN_MIN,
} from "./rules";

export function CropPanel({ aspect, onAspect }: { aspect: CropAspect; onAspect: (aspect: CropAspect) => void }) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t("imageEditor.crop.aspect")}>
      <Radio.Group
        value={aspect}
        onChange={(event) => onAspect(event.target.value as CropAspect)}
        optionType="button"
        size="small"
        options={CROP_ASPECTS.map((value) => ({
          value,
          label: value === "free" ? t("imageEditor.crop.free") : value,
        }))}
      />
    </Form.Item>
  );
}

export function RotatePanel({ params, onChange }: { params: RotateParams; onChange: (params: RotateParams) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item label={t("imageEditor.rotate.angle")}>
        <Slider
          min={ROTATION_MIN}
          max={ROTATION_MAX}
          step={1}
          value={params.slider}
          onChange={(slider: number) => onChange({ ...params, slider })}
          aria-label={t("imageEditor.rotate.angle")}
        />
      </Form.Item>
      <Space wrap>
        <Button icon={<RotateLeftOutlined />} onClick={() => onChange({ ...params, turns: params.turns - 90 })}>
          {t("imageEditor.rotate.left")}
        </Button>
        <Button icon={<RotateRightOutlined />} onClick={() => onChange({ ...params, turns: params.turns + 90 })}>
          {t("imageEditor.rotate.right")}
        </Button>
        <Button icon={<SwapOutlined />} onClick={() => onChange({ ...params, flipH: !params.flipH })}>
          {t("imageEditor.rotate.flipH")}
        </Button>
        <Button icon={<SwapOutlined rotate={90} />} onClick={() => onChange({ ...params, flipV: !params.flipV })}>
          {t("imageEditor.rotate.flipV")}
        </Button>
      </Space>
    </>
  );
}

function SliderField({
  label,
  min,
  max,
  value,
  onChange,
}: {
  label: string;
  min: number;
  max: number;
  value: number;
  onChange: (value: number) => void;
}) {
  return (
    <Form.Item label={label}>
      <Space.Compact style={{ width: "100%" }} block>
        <Slider style={{ flex: 1, marginRight: 12 }} min={min} max={max} step={1} value={value} onChange={onChange} />
        <InputNumber
          min={min}
          max={max}
          precision={0}
          value={value}
          aria-label={label}
          onChange={(next) => (typeof next === "number" ? onChange(next) : undefined)}
          style={{ width: 72 }}
        />
      </Space.Compact>
    </Form.Item>
  );
}

export function ColourPanel({ params, onChange }: { params: ColourParams; onChange: (params: ColourParams) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <SliderField
        label={t("imageEditor.colour.brightness")}
        min={COLOUR_MIN}
        max={COLOUR_MAX}
        value={params.brightness}
        onChange={(brightness) => onChange({ ...params, brightness })}
      />
      <SliderField
        label={t("imageEditor.colour.contrast")}
        min={COLOUR_MIN}
        max={COLOUR_MAX}
        value={params.contrast}
        onChange={(contrast) => onChange({ ...params, contrast })}
      />
      <SliderField
        label={t("imageEditor.colour.sharpen")}
        min={SHARPEN_MIN}
        max={SHARPEN_MAX}
        value={params.sharpen}
        onChange={(sharpen) => onChange({ ...params, sharpen })}
      />
    </>
  );
}

export function ResizePanel({
  params,
  image,
  maxLength,
  onChange,
}: {
  params: ResizeState;
  image: { width: number; height: number };
  maxLength: number;
  onChange: (params: ResizeState) => void;
}) {
  const { t } = useTranslation();
  const number = (value: number | null): number => (typeof value === "number" ? value : 0);
  return (
    <>
      <Form.Item label={t("imageEditor.resize.width")}>
        <InputNumber
          aria-label={t("imageEditor.resize.width")}
          min={1}
          max={maxLength}
          precision={0}
          value={params.width}
          onChange={(value) => onChange(resizeWidth(params, number(value), image))}
          addonAfter="px"
        />
      </Form.Item>
      <Form.Item label={t("imageEditor.resize.height")}>
        <InputNumber
          aria-label={t("imageEditor.resize.height")}
          min={1}
          max={maxLength}
          precision={0}
          value={params.height}
          onChange={(value) => onChange(resizeHeight(params, number(value), image))}
          addonAfter="px"
        />
      </Form.Item>
      <Form.Item label={t("imageEditor.resize.percent")}>
        <InputNumber
          aria-label={t("imageEditor.resize.percent")}
          min={1}
          max={maxResizePercent(image, maxLength)}
          precision={0}
          value={params.percent}
          onChange={(value) => onChange(resizePercent(params, number(value), image))}
          addonAfter="%"
        />
      </Form.Item>
      <Checkbox checked={params.locked} onChange={(event) => onChange({ ...params, locked: event.target.checked })}>
        {t("imageEditor.resize.lock")}
      </Checkbox>
      <div style={{ marginTop: 8, color: "rgba(0,0,0,0.45)" }}>{t("imageEditor.resize.limit", { max: maxLength })}</div>
    </>
  );
}

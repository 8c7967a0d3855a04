import { Form, Input, Modal, Select } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { isWritable, useDefaultLibrary, useLibraries } from "../../../api/libraries";
import { createHalfProduct, type UploadType } from "../../../api/stories";

interface Values {
  libraryId: string;
  type: UploadType;
  title: string;
  caption?: string;
}

/** 新建半成品: a draft from a title (and caption) in a library the user writes to; its file may come later. */
export function CreateHalfProductDialog({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const libraries = (useLibraries().data ?? []).filter(isWritable);
  const preferred = useDefaultLibrary().data?.libraryId;
  const initialLibrary = libraries.some((library) => library.id === preferred) ? preferred : libraries[0]?.id;
  return (
    <Modal
      open
      title={t("halfproduct.create")}
      width={600}
      okText={t("crud.ok")}
      cancelText={t("crud.cancel")}
      confirmLoading={saving}
      destroyOnHidden
      onCancel={onClose}
      onOk={async () => {
        const values = await form.validateFields();
        setSaving(true);
        try {
          await createHalfProduct(values.type, {
            libraryId: values.libraryId,
            title: values.title.trim(),
            caption: values.caption?.trim() || undefined,
          });
          onCreated();
          onClose();
        } finally {
          setSaving(false);
        }
      }}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ libraryId: initialLibrary, type: "photo" }}
        data-testid="halfproduct-form"
      >
        <Form.Item
          name="libraryId"
          label={t("stories.meta.library")}
          rules={[{ required: true, message: t("halfproduct.libraryRequired") }]}
        >
          <Select options={libraries.map((library) => ({ value: library.id, label: library.name }))} />
        </Form.Item>
        <Form.Item name="type" label={t("stories.meta.type")} rules={[{ required: true }]}>
          <Select
            options={(["photo", "video", "audio"] as const).map((type) => ({
              value: type,
              label: t(`stories.type.${type}`),
            }))}
          />
        </Form.Item>
        <Form.Item
          name="title"
          label={t("stories.meta.title")}
          rules={[
            { required: true, whitespace: true, message: t("halfproduct.titleRequired") },
            { max: 500, message: t("halfproduct.titleMax") },
          ]}
        >
          <Input autoFocus />
        </Form.Item>
        <Form.Item name="caption" label={t("stories.meta.caption")}>
          <Input.TextArea rows={4} maxLength={20000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

import { Form, Input, Modal } from "antd";
import { useTranslation } from "react-i18next";

/** The dialog asking a folder's name, for a new folder and a rename. */
export function NameDialog(props: {
  title: string;
  /** The field's label (the back area says 目录, the front area 文件夹). */
  label?: string;
  initial?: string;
  onSubmit: (name: string) => Promise<boolean>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  return (
    <Modal
      open
      title={props.title}
      width={600}
      okText={t("crud.ok")}
      cancelText={t("crud.cancel")}
      destroyOnHidden
      onCancel={props.onClose}
      onOk={async () => {
        const { name } = await form.validateFields();
        if (await props.onSubmit(name.trim())) props.onClose();
      }}
    >
      <Form form={form} layout="vertical" initialValues={{ name: props.initial ?? "" }}>
        <Form.Item
          name="name"
          label={props.label ?? t("folderAdmin.name")}
          rules={[
            { required: true, whitespace: true, message: t("folderAdmin.name.required") },
            { max: 100, message: t("folderAdmin.name.max") },
            { pattern: /^[^/\\]*$/, message: t("folderAdmin.name.slash") },
          ]}
        >
          <Input autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}

import { PlusOutlined } from "@ant-design/icons";
import {
  type ActionType,
  ModalForm,
  type ProColumns,
  type ProFormInstance,
  ProTable,
} from "@ant-design/pro-components";
import { Alert, Button, Popconfirm, Space, Tag } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  createStorageTarget,
  deleteStorageTarget,
  listStorageTargets,
  type StorageTarget,
  type StorageTargetInput,
  type StorageTargetTest,
  testStorageSettings,
  testStorageTarget,
  updateStorageTarget,
} from "../../../../api/storage";
import { Access } from "../../../../auth/access-component";
import { EDIT_MODAL_WIDTH, showRefusal } from "../../../../components/crud-table";
import { useFeedback } from "../../../../components/feedback";
import { TargetFields } from "./components/target-fields";

const PERMISSION = "manage.setting.bucket";

interface TargetForm extends Record<string, unknown> {
  name: string;
  kind: "local" | "s3";
  directory?: string;
  endpoint?: string;
  region?: string;
  bucket?: string;
  prefix?: string;
  pathStyle?: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/** The form's values as the API takes them; an empty secret keeps the saved one. */
export function toTargetInput(values: TargetForm): StorageTargetInput {
  if (values.kind === "local")
    return { name: values.name.trim(), kind: "local", directory: values.directory?.trim() ?? "" };
  return {
    name: values.name.trim(),
    kind: "s3",
    endpoint: values.endpoint?.trim() || null,
    region: values.region?.trim() || "us-east-1",
    bucket: values.bucket?.trim() ?? "",
    prefix: values.prefix?.trim() || null,
    pathStyle: values.pathStyle ?? true,
    accessKeyId: values.accessKeyId?.trim() || null,
    ...(values.secretAccessKey ? { secretAccessKey: values.secretAccessKey } : {}),
  };
}

const toFormValues = (target: StorageTarget): TargetForm => ({
  name: target.name,
  kind: target.kind,
  directory: target.directory ?? undefined,
  endpoint: target.endpoint ?? undefined,
  region: target.region ?? undefined,
  bucket: target.bucket ?? undefined,
  prefix: target.prefix ?? undefined,
  pathStyle: target.pathStyle ?? true,
  accessKeyId: target.accessKeyId ?? undefined,
});

/** /manage/setting/bucket: the storage targets — list, add, edit, delete, test connection. */
export default function ManageSettingBucketPage() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const actionRef = useRef<ActionType>(null);
  const formRef = useRef<ProFormInstance<TargetForm>>(undefined);
  const [editing, setEditing] = useState<{ target?: StorageTarget } | null>(null);
  const [formTest, setFormTest] = useState<StorageTargetTest | null>(null);
  const [testing, setTesting] = useState<string | null>(null);

  const nameOf = (target: StorageTarget) => (target.builtIn ? t(`storage.builtIn.${target.kind}`) : target.name);
  const testText = (result: StorageTargetTest) =>
    result.ok
      ? t("storage.test.ok", { ms: result.durationMs })
      : t("storage.test.failed", { reason: t(`storage.reason.${result.reason ?? "failed"}`) });
  const reload = async () => {
    await actionRef.current?.reload();
  };

  const runTest = async (target: StorageTarget) => {
    setTesting(target.id);
    try {
      const result = await testStorageTarget(target.id);
      if (result.ok) message.success(`${nameOf(target)}: ${testText(result)}`);
      else message.error(`${nameOf(target)}: ${testText(result)}`);
    } finally {
      setTesting(null);
    }
  };

  const columns: ProColumns<StorageTarget>[] = [
    {
      title: t("storage.name"),
      dataIndex: "name",
      render: (_, target) => (
        <Space size={4} wrap>
          <span>{nameOf(target)}</span>
          {target.isDefault ? <Tag color="blue">{t("storage.default")}</Tag> : null}
        </Space>
      ),
    },
    {
      title: t("storage.kind"),
      dataIndex: "kind",
      responsive: ["sm"],
      render: (_, target) => t(`storage.kind.${target.kind}`),
    },
    {
      title: t("storage.where"),
      dataIndex: "bucket",
      responsive: ["md"],
      ellipsis: true,
      render: (_, target) =>
        target.builtIn
          ? "—"
          : target.kind === "local"
            ? `targets/${target.directory}`
            : [target.endpoint ?? "AWS", `${target.bucket}${target.prefix ? `/${target.prefix}` : ""}`].join(" · "),
    },
    { title: t("storage.libraries"), dataIndex: "libraries", width: 90 },
    {
      title: t("storage.files"),
      dataIndex: "files",
      width: 90,
      responsive: ["sm"],
      render: (_, target) => (target.files === null ? "—" : target.files),
    },
    {
      title: t("crud.actions"),
      valueType: "option",
      key: "actions",
      render: (_, target) => [
        <Button
          key="test"
          type="link"
          size="small"
          loading={testing === target.id}
          onClick={() => void runTest(target)}
        >
          {t("storage.test")}
        </Button>,
        ...(target.builtIn
          ? []
          : [
              <Access key="edit" action={`${PERMISSION}.edit`}>
                <Button
                  type="link"
                  size="small"
                  onClick={() => {
                    setFormTest(null);
                    setEditing({ target });
                  }}
                >
                  {t("crud.edit")}
                </Button>
              </Access>,
              <Access key="delete" action={`${PERMISSION}.delete`}>
                <Popconfirm
                  title={t("storage.delete.confirm")}
                  okText={t("crud.ok")}
                  cancelText={t("crud.cancel")}
                  onConfirm={async () => {
                    try {
                      await deleteStorageTarget(target.id);
                    } catch (error) {
                      showRefusal(error, (text) => message.error(text));
                      return;
                    }
                    message.success(t("storage.deleted"));
                    await reload();
                  }}
                >
                  <Button type="link" size="small" danger>
                    {t("crud.delete")}
                  </Button>
                </Popconfirm>
              </Access>,
            ]),
      ],
    },
  ];

  return (
    <>
      <ProTable<StorageTarget>
        rowKey="id"
        actionRef={actionRef}
        headerTitle={t("storage.targets.title")}
        columns={columns}
        search={false}
        pagination={false}
        options={{ reload: true, density: false, setting: false }}
        request={async () => {
          const targets = await listStorageTargets();
          return { data: targets, total: targets.length, success: true };
        }}
        toolBarRender={() => [
          <Access key="add" action={`${PERMISSION}.add`}>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => {
                setFormTest(null);
                setEditing({});
              }}
            >
              {t("storage.add")}
            </Button>
          </Access>,
        ]}
      />
      <ModalForm<TargetForm>
        key={editing?.target?.id ?? "new"}
        formRef={formRef}
        title={editing?.target ? t("storage.edit") : t("storage.add")}
        width={EDIT_MODAL_WIDTH}
        open={editing !== null}
        initialValues={
          editing?.target ? toFormValues(editing.target) : { kind: "local", pathStyle: true, region: "us-east-1" }
        }
        modalProps={{ destroyOnHidden: true, onCancel: () => setEditing(null) }}
        submitter={{
          render: (_, buttons) => [
            <Button
              key="test"
              onClick={async () => {
                const values = (await formRef.current?.validateFields()) as TargetForm | undefined;
                if (!values) return;
                setFormTest(await testStorageSettings(toTargetInput(values), editing?.target?.id));
              }}
            >
              {t("storage.test")}
            </Button>,
            ...buttons,
          ],
        }}
        onFinish={async (values) => {
          try {
            if (editing?.target) await updateStorageTarget(editing.target.id, toTargetInput(values));
            else await createStorageTarget(toTargetInput(values));
          } catch (error) {
            showRefusal(error, (text) => message.error(text));
            return false;
          }
          message.success(t("storage.saved"));
          setEditing(null);
          await reload();
          return true;
        }}
      >
        <TargetFields t={t} target={editing?.target} />
        {formTest ? (
          <Alert
            data-testid="storage-form-test"
            type={formTest.ok ? "success" : "error"}
            showIcon
            message={testText(formTest)}
            description={formTest.ok ? undefined : formTest.message}
          />
        ) : null}
      </ModalForm>
    </>
  );
}

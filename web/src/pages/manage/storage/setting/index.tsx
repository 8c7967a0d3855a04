import { Button, Card, Form, Modal, Progress, Select, Space, Table, Tag, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  BUILT_IN_TARGET,
  type StorageMove,
  type StorageSettings,
  useMoveLibrary,
  useSetDefaultTarget,
  useSetLibraryTarget,
  useStorageSettings,
} from "../../../../api/storage";
import { Access, useAccess } from "../../../../auth/access-component";
import { showRefusal } from "../../../../components/crud-table";
import { useFeedback } from "../../../../components/feedback";
import { formatSize } from "../../../../components/story-viewer/format";
import { QuotasCard } from "./quotas-card";

const PERMISSION = "manage.storage.setting";
type LibraryRow = StorageSettings["libraries"][number];

/** A move's state in words, with its progress while it runs. */
function MoveState({ move }: { move: StorageMove | null }) {
  const { t } = useTranslation();
  if (!move) return <>{t("storage.settings.noMove")}</>;
  const percent = move.totalFiles === 0 ? 0 : Math.floor((move.movedFiles / move.totalFiles) * 100);
  switch (move.state) {
    case "queued":
      return <Tag>{t("storage.move.queued")}</Tag>;
    case "running":
      return (
        <Space direction="vertical" size={0} style={{ minWidth: 140 }}>
          <span>{t("storage.move.running", { moved: move.movedFiles, total: move.totalFiles })}</span>
          <Progress percent={percent} size="small" />
        </Space>
      );
    case "succeeded":
      return (
        <Space size={4} wrap>
          <Tag color="green">{t("storage.move.succeeded", { total: move.totalFiles })}</Tag>
          <Typography.Text type="secondary">{move.targetName || t("storage.builtIn")}</Typography.Text>
        </Space>
      );
    case "failed":
      return <Tag color="red">{t("storage.move.failed", { error: move.error ?? "" })}</Tag>;
  }
}

/** /manage/storage/setting: the default storage, where each library's new originals go, and moving a library's files. */
export default function ManageStorageSettingPage() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const settings = useStorageSettings();
  const allowed = useAccess();
  const setDefault = useSetDefaultTarget();
  const setLibraryTarget = useSetLibraryTarget();
  const moveLibrary = useMoveLibrary();
  const [defaultChoice, setDefaultChoice] = useState<string | null>(null);
  const [moving, setMoving] = useState<{ library: LibraryRow; targetId: string } | null>(null);

  const data = settings.data;
  const targetName = (id: string) => {
    const target = data?.targets.find((candidate) => candidate.id === id);
    return !target || target.id === BUILT_IN_TARGET ? t("storage.builtIn") : target.name;
  };
  const targetOptions = (data?.targets ?? []).map((target) => ({ value: target.id, label: targetName(target.id) }));
  const refused = (error: unknown) => showRefusal(error, (text) => message.error(text));

  const columns: ColumnsType<LibraryRow> = [
    { title: t("storage.settings.library"), dataIndex: "name", key: "name" },
    {
      title: t("storage.settings.target"),
      key: "target",
      render: (_, library) =>
        allowed(`${PERMISSION}.edit`) ? (
          <Select
            aria-label={t("storage.settings.target")}
            data-testid={`library-target-${library.libraryId}`}
            style={{ minWidth: 180 }}
            value={library.bucketId ?? ""}
            loading={setLibraryTarget.isPending && setLibraryTarget.variables?.libraryId === library.libraryId}
            options={[
              { value: "", label: t("storage.settings.useDefault", { name: targetName(data?.defaultTargetId ?? "") }) },
              ...targetOptions,
            ]}
            onChange={(value: string) =>
              setLibraryTarget.mutate(
                { libraryId: library.libraryId, targetId: value === "" ? null : value },
                { onSuccess: () => message.success(t("storage.changed")), onError: refused },
              )
            }
          />
        ) : (
          targetName(library.targetId)
        ),
    },
    {
      title: t("storage.settings.lastMove"),
      key: "move",
      responsive: ["sm"],
      render: (_, library) => (
        <Space direction="vertical" size={0}>
          <MoveState move={library.move} />
          {library.move && library.move.movedBytes > 0 ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t("storage.move.bytes", { size: formatSize(library.move.movedBytes) })}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    {
      title: t("crud.actions"),
      key: "actions",
      render: (_, library) => (
        <Access action={`${PERMISSION}.update`}>
          <Button
            type="link"
            size="small"
            disabled={library.move?.state === "queued" || library.move?.state === "running"}
            onClick={() => setMoving({ library, targetId: library.targetId })}
          >
            {t("storage.settings.move")}
          </Button>
        </Access>
      ),
    },
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }}>
      <Card title={t("storage.settings.title")} loading={settings.isLoading}>
        <Form layout="vertical">
          <Form.Item label={t("storage.settings.default")} extra={t("storage.settings.default.help")}>
            <Space wrap>
              <Select
                aria-label={t("storage.settings.default")}
                style={{ minWidth: 220 }}
                value={defaultChoice ?? data?.defaultTargetId}
                options={targetOptions}
                onChange={setDefaultChoice}
              />
              <Access action={`${PERMISSION}.edit`}>
                <Button
                  type="primary"
                  disabled={!defaultChoice || defaultChoice === data?.defaultTargetId}
                  loading={setDefault.isPending}
                  onClick={() =>
                    defaultChoice &&
                    setDefault.mutate(defaultChoice, {
                      onSuccess: () => {
                        setDefaultChoice(null);
                        message.success(t("storage.saved"));
                      },
                      onError: refused,
                    })
                  }
                >
                  {t("storage.settings.save")}
                </Button>
              </Access>
            </Space>
          </Form.Item>
        </Form>
      </Card>
      <Card>
        <Table<LibraryRow>
          rowKey="libraryId"
          size="middle"
          loading={settings.isLoading}
          columns={columns}
          dataSource={data?.libraries ?? []}
          pagination={false}
          scroll={{ x: "max-content" }}
        />
      </Card>
      <QuotasCard />
      <Modal
        open={moving !== null}
        title={moving ? t("storage.settings.move.title", { name: moving.library.name }) : ""}
        okText={t("storage.settings.move.start")}
        cancelText={t("crud.cancel")}
        confirmLoading={moveLibrary.isPending}
        destroyOnHidden
        onCancel={() => setMoving(null)}
        onOk={() =>
          moving &&
          moveLibrary.mutate(
            { libraryId: moving.library.libraryId, targetId: moving.targetId },
            {
              onSuccess: () => {
                setMoving(null);
                message.success(t("storage.settings.move.started"));
              },
              onError: refused,
            },
          )
        }
      >
        <Typography.Paragraph type="secondary">{t("storage.settings.move.help")}</Typography.Paragraph>
        <Form layout="vertical">
          <Form.Item label={t("storage.settings.move.target")}>
            <Select
              aria-label={t("storage.settings.move.target")}
              value={moving?.targetId}
              options={targetOptions}
              onChange={(targetId: string) => setMoving((current) => current && { ...current, targetId })}
            />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}

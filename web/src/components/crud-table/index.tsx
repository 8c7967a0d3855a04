import { PlusOutlined } from "@ant-design/icons";
import { type ActionType, ModalForm, type ProColumns, ProTable } from "@ant-design/pro-components";
import { App, Button, Popconfirm } from "antd";
import { type ReactNode, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { DEFAULT_PAGE_SIZE, type ListQuery, type Page, rangeParams, toListQuery, toTableResult } from "./paging";

/** Spec section 9: the add/edit modal is 600px wide. */
export const EDIT_MODAL_WIDTH = 600;

export interface CrudTableProps<T extends Record<string, unknown>, V extends Record<string, unknown>> {
  rowKey: keyof T & string;
  columns: ProColumns<T>[];
  headerTitle?: ReactNode;
  list: (query: ListQuery) => Promise<Page<T>>;
  create?: (values: V) => Promise<unknown>;
  update?: (record: T, values: V) => Promise<unknown>;
  remove?: (record: T) => Promise<unknown>;
  /** The fields of the add/edit form; the record is set when editing. */
  formFields?: (record?: T) => ReactNode;
}

/**
 * The generic list/edit table of the management screens: a ProTable whose
 * `request` speaks the API's paging, an add/edit modal and a delete confirm.
 */
export function CrudTable<T extends Record<string, unknown>, V extends Record<string, unknown>>(
  props: CrudTableProps<T, V>,
) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const actionRef = useRef<ActionType>(null);
  const [editing, setEditing] = useState<{ record?: T } | null>(null);

  const actionColumn: ProColumns<T> = {
    title: t("crud.actions"),
    valueType: "option",
    key: "crud-actions",
    render: (_, record) => [
      props.update ? (
        <Button key="edit" type="link" size="small" onClick={() => setEditing({ record })}>
          {t("crud.edit")}
        </Button>
      ) : null,
      props.remove ? (
        <Popconfirm
          key="delete"
          title={t("crud.deleteConfirm")}
          okText={t("crud.ok")}
          cancelText={t("crud.cancel")}
          onConfirm={async () => {
            await props.remove?.(record);
            message.success(t("crud.deleted"));
            await actionRef.current?.reload();
          }}
        >
          <Button type="link" size="small" danger>
            {t("crud.delete")}
          </Button>
        </Popconfirm>
      ) : null,
    ],
  };
  const columns = props.update || props.remove ? [...props.columns, actionColumn] : props.columns;

  return (
    <>
      <ProTable<T, { keyword?: string }>
        rowKey={props.rowKey}
        actionRef={actionRef}
        headerTitle={props.headerTitle}
        columns={columns}
        search={false}
        options={{ search: { placeholder: t("crud.keyword") }, reload: true, density: false, setting: false }}
        pagination={{
          defaultPageSize: DEFAULT_PAGE_SIZE,
          showSizeChanger: true,
          showQuickJumper: true,
          showTotal: (total, range) => t("crud.range", rangeParams(range, total)),
        }}
        request={async (params) => toTableResult(await props.list(toListQuery(params)))}
        toolBarRender={() =>
          props.create
            ? [
                <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
                  {t("crud.add")}
                </Button>,
              ]
            : []
        }
      />
      <ModalForm<V>
        key={editing?.record ? String(editing.record[props.rowKey]) : "new"}
        title={editing?.record ? t("crud.edit") : t("crud.add")}
        width={EDIT_MODAL_WIDTH}
        open={editing !== null}
        initialValues={editing?.record}
        modalProps={{ destroyOnHidden: true, onCancel: () => setEditing(null) }}
        onFinish={async (values) => {
          if (editing?.record) await props.update?.(editing.record, values);
          else await props.create?.(values);
          message.success(t("crud.saved"));
          setEditing(null);
          await actionRef.current?.reload();
          return true;
        }}
      >
        {props.formFields?.(editing?.record)}
      </ModalForm>
    </>
  );
}

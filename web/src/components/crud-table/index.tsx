import { PlusOutlined } from "@ant-design/icons";
import { type ActionType, ModalForm, type ProColumns, ProTable } from "@ant-design/pro-components";
import { Button, Flex, Grid, Popconfirm } from "antd";
import { type ReactNode, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, localizedMessage } from "../../api/http";
import type { ListQuery, Page } from "../../api/paging";
import { Access } from "../../auth/access-component";
import { useFeedback } from "../feedback";
import { type MergeChoice, MergeDialog } from "./merge-dialog";
import { DEFAULT_PAGE_SIZE, rangeParams, toListQuery, toTableResult } from "./paging";

/** On a phone: the first column's width (the name, wrapped) and the stacked buttons' column's. */
const PHONE_NAME_WIDTH = 150;
const PHONE_ACTIONS_WIDTH = 96;

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
  /** The edit form's initial values for a record (the record itself when absent). */
  toFormValues?: (record: T) => Partial<V>;
  /** The add form's initial values (a new entry's defaults). */
  newValues?: Partial<V>;
  /** Spec section 6: the 'permissionId.action' checks of the add, edit and delete buttons. */
  access?: { add?: string; edit?: string; delete?: string };
  /** A delete refused because stories use the entry offers to merge it into another of the same kind. */
  merge?: MergeChoice<T>;
  /** More buttons in the toolbar, before "add". */
  toolbarExtra?: ReactNode[];
  /** More buttons in a row's action column; `reload` refreshes the list. */
  rowActions?: (record: T, reload: () => Promise<void>) => ReactNode[];
}

/** Wraps an element in the access directive when a check is given. */
function guarded(check: string | undefined, key: string, element: ReactNode): ReactNode {
  return check ? (
    <Access key={key} action={check}>
      {element}
    </Access>
  ) : (
    element
  );
}

/**
 * A refusal the server explains (409: the role is in use, the name is taken)
 * is shown with the server's message; other failures were already reported
 * by the API client (spec section 8).
 */
export function showRefusal(error: unknown, show: (text: string) => void): void {
  if (error instanceof ApiError && error.status === 409) show(localizedMessage(error));
}

/**
 * The generic list/edit table of the management screens: a ProTable whose
 * `request` speaks the API's paging, an add/edit modal and a delete confirm.
 */
export function CrudTable<T extends Record<string, unknown>, V extends Record<string, unknown>>(
  props: CrudTableProps<T, V>,
) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const actionRef = useRef<ActionType>(null);
  const [editing, setEditing] = useState<{ record?: T } | null>(null);
  const [merging, setMerging] = useState<{ record: T; refusal: string } | null>(null);

  // A phone (below 576 px): the first column (the name) stays in view on the left and the row's buttons
  // are stacked on the right, so a name is never hidden under them; the other columns scroll between.
  const phone = !Grid.useBreakpoint().sm;

  const reload = async () => {
    await actionRef.current?.reload();
  };
  const rowButtons = (record: T): ReactNode[] => [
    props.update
      ? guarded(
          props.access?.edit,
          "edit",
          <Button key="edit" type="link" size="small" onClick={() => setEditing({ record })}>
            {t("crud.edit")}
          </Button>,
        )
      : null,
    ...(props.rowActions?.(record, reload) ?? []),
    props.remove
      ? guarded(
          props.access?.delete,
          "delete",
          <Popconfirm
            key="delete"
            title={t("crud.deleteConfirm")}
            okText={t("crud.ok")}
            cancelText={t("crud.cancel")}
            onConfirm={async () => {
              try {
                await props.remove?.(record);
              } catch (error) {
                if (props.merge && error instanceof ApiError && error.status === 409 && error.code === "in_use") {
                  setMerging({ record, refusal: localizedMessage(error) });
                  return;
                }
                showRefusal(error, (text) => message.error(text));
                return;
              }
              message.success(t("crud.deleted"));
              await reload();
            }}
          >
            <Button type="link" size="small" danger>
              {t("crud.delete")}
            </Button>
          </Popconfirm>,
        )
      : null,
  ];
  const actionColumn: ProColumns<T> = {
    title: t("crud.actions"),
    valueType: "option",
    key: "crud-actions",
    // Always in view (the rows scroll beneath it on a phone), never clipped by the columns before it.
    fixed: "right",
    ...(phone ? { width: PHONE_ACTIONS_WIDTH } : {}),
    render: (_, record) =>
      phone ? (
        <Flex vertical align="start" data-testid="crud-row-actions">
          {rowButtons(record)}
        </Flex>
      ) : (
        rowButtons(record)
      ),
  };
  const [first, ...rest] = props.columns;
  const shown =
    phone && first && !first.fixed
      ? [
          {
            ...first,
            fixed: "left" as const,
            width: PHONE_NAME_WIDTH,
            ellipsis: false,
            // A long name wraps within the column instead of running under the buttons.
            onCell: () => ({ style: { wordBreak: "break-word" as const } }),
          },
          ...rest,
        ]
      : props.columns;
  const columns = props.update || props.remove || props.rowActions ? [...shown, actionColumn] : shown;

  return (
    <>
      <ProTable<T, { keyword?: string }>
        rowKey={props.rowKey}
        actionRef={actionRef}
        headerTitle={props.headerTitle}
        columns={columns}
        scroll={{ x: "max-content" }}
        search={false}
        options={{ search: { placeholder: t("crud.keyword") }, reload: true, density: false, setting: false }}
        pagination={{
          defaultPageSize: DEFAULT_PAGE_SIZE,
          showSizeChanger: true,
          showQuickJumper: true,
          showTotal: (total, range) => t("crud.range", rangeParams(range, total)),
        }}
        request={async (params) => toTableResult(await props.list(toListQuery(params)))}
        toolBarRender={() => [
          ...(props.toolbarExtra ?? []),
          ...(props.create
            ? [
                guarded(
                  props.access?.add,
                  "add",
                  <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
                    {t("crud.add")}
                  </Button>,
                ),
              ]
            : []),
        ]}
      />
      <ModalForm<V>
        key={editing?.record ? String(editing.record[props.rowKey]) : "new"}
        title={editing?.record ? t("crud.edit") : t("crud.add")}
        width={EDIT_MODAL_WIDTH}
        open={editing !== null}
        initialValues={
          editing?.record ? (props.toFormValues ? props.toFormValues(editing.record) : editing.record) : props.newValues
        }
        modalProps={{ destroyOnHidden: true, onCancel: () => setEditing(null) }}
        onFinish={async (values) => {
          try {
            if (editing?.record) await props.update?.(editing.record, values);
            else await props.create?.(values);
          } catch (error) {
            showRefusal(error, (text) => message.error(text));
            return false;
          }
          message.success(t("crud.saved"));
          setEditing(null);
          await actionRef.current?.reload();
          return true;
        }}
      >
        {props.formFields?.(editing?.record)}
      </ModalForm>
      {merging && props.merge ? (
        <MergeDialog<T>
          record={merging.record}
          refusal={merging.refusal}
          choice={props.merge}
          onClose={(merged) => {
            setMerging(null);
            if (merged) void reload();
          }}
        />
      ) : null}
    </>
  );
}

import { type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { ResourceCalls } from "../../api/paging";
import { CrudTable, type CrudTableProps } from ".";

/** The 'permissionId.action' checks of a screen's add, edit and delete buttons (spec section 6). */
export function crudAccess(permission: string) {
  return { add: `${permission}.add`, edit: `${permission}.edit`, delete: `${permission}.delete` };
}

export interface ResourceTableProps<
  T extends Record<string, unknown> & { id: string },
  V extends Record<string, unknown>,
  I,
> extends Omit<CrudTableProps<T, V>, "rowKey" | "headerTitle" | "list" | "create" | "update" | "remove" | "access"> {
  /** The screen's route key: the permissionId its add, edit and delete buttons check. */
  permission: string;
  /** The i18n key of the table's title. */
  titleKey: string;
  calls: ResourceCalls<T, I>;
  /** The API body of the form's values; `record` is the entry being edited (none when adding). */
  toInput: (values: V, record?: T) => I;
}

/**
 * The CrudTable of a resource kept by id: rows keyed by id, the add, edit and delete buttons checked against the
 * screen's permission, and the form's values turned into the resource's API body.
 */
export function ResourceTable<
  T extends Record<string, unknown> & { id: string },
  V extends Record<string, unknown>,
  I,
>({ permission, titleKey, calls, toInput, ...table }: ResourceTableProps<T, V, I>) {
  const { t } = useTranslation();
  return (
    <CrudTable<T, V>
      rowKey="id"
      headerTitle={t(titleKey)}
      list={calls.list}
      access={crudAccess(permission)}
      create={(values) => calls.create(toInput(values))}
      update={(record, values) => calls.update(record.id, toInput(values, record))}
      remove={(record) => calls.remove(record.id)}
      {...table}
    />
  );
}

/**
 * Wraps a screen's writes so that each, once done, marks `queryKey` stale: the lists the rest of the app shows
 * (libraries, the category picker) follow the change.
 */
export function useRefreshing(queryKey: QueryKey) {
  const queryClient = useQueryClient();
  return <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const result = await write(...args);
      await queryClient.invalidateQueries({ queryKey });
      return result;
    };
}

import type { ProColumns } from "@ant-design/pro-components";
import { useTranslation } from "react-i18next";
import type { MergeResult } from "../../../../api/catalogue";
import type { ResourceCalls } from "../../../../api/paging";
import { ResourceTable } from "../../../../components/crud-table/resource-table";
import { DescriptionField, NameField, SortOrderField, updateTimeColumn } from "./fields";
import { orderOrZero, textOrNull, trimmed } from "./form-values";
import { mergeChoice } from "./merge";

/** An entry of a catalogue list that is a name, a description and a place in the order (themes, sources). */
export interface SortedEntry extends Record<string, unknown> {
  id: string;
  name: string;
  description: string | null;
  sortOrder: number;
  updateTime: string;
}

interface SortedEntryForm extends Record<string, unknown> {
  name: string;
  description?: string;
  sortOrder?: number;
}

interface SortedEntryInput {
  name: string;
  description: string | null;
  sortOrder: number;
}

const toInput = (values: SortedEntryForm): SortedEntryInput => ({
  name: trimmed(values.name),
  description: textOrNull(values.description),
  sortOrder: orderOrZero(values.sortOrder),
});

/** The screen of such a list: its table, its add/edit form, and merging an entry stories use into another. */
export function SortedEntryPage<T extends SortedEntry>({
  permission,
  titleKey,
  calls,
  merge,
}: {
  permission: string;
  titleKey: string;
  calls: ResourceCalls<T, SortedEntryInput>;
  merge: (id: string, into: string) => Promise<MergeResult>;
}) {
  const { t } = useTranslation();
  const columns: ProColumns<T>[] = [
    { title: t("catalogue.name"), dataIndex: "name" },
    { title: t("catalogue.description"), dataIndex: "description", ellipsis: true },
    { title: t("catalogue.sortOrder"), dataIndex: "sortOrder", width: 90 },
    updateTimeColumn(t),
  ];
  return (
    <ResourceTable<T, SortedEntryForm, SortedEntryInput>
      permission={permission}
      titleKey={titleKey}
      columns={columns}
      calls={calls}
      toInput={toInput}
      merge={mergeChoice(calls.list, merge)}
      toFormValues={(entry) => ({
        name: entry.name,
        description: entry.description ?? undefined,
        sortOrder: entry.sortOrder,
      })}
      formFields={() => (
        <>
          <NameField t={t} />
          <DescriptionField t={t} />
          <SortOrderField t={t} />
        </>
      )}
    />
  );
}

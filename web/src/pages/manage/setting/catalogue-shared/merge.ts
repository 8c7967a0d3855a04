import type { MergeResult } from "../../../../api/catalogue";
import type { ListQuery, Page } from "../../../../api/paging";
import type { MergeChoice } from "../../../../components/crud-table/merge-dialog";

/** How many entries the merge picker offers per search. */
const PICKER_SIZE = 50;

/**
 * The merge choice of a catalogue screen: the picker lists the other entries
 * of the same list (searched by keyword), and the merge is the entry's delete
 * with `mergeInto`.
 */
export function mergeChoice<T extends { id: string; name: string }>(
  list: (query: ListQuery) => Promise<Page<T>>,
  merge: (id: string, into: string) => Promise<MergeResult>,
  describe: (entry: T) => string = (entry) => entry.name,
): MergeChoice<T> {
  return {
    label: (record) => record.name,
    candidates: async (record, keyword) =>
      (await list({ page: 0, size: PICKER_SIZE, keyword: keyword.trim() || undefined })).content
        .filter((entry) => entry.id !== record.id)
        .map((entry) => ({ value: entry.id, label: describe(entry) })),
    run: (record, intoId) => merge(record.id, intoId),
  };
}

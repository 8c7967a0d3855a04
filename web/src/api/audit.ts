/** The operation log (the log page): its types, calls, query keys and hooks. */
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { api, call } from "./client";
import type { components, paths } from "./schema";

export type AuditRecord = components["schemas"]["AuditRecord"];
export type AuditPage = components["schemas"]["AuditPage"];
type LogQuery = NonNullable<paths["/dams/api/v1/log/logDisplay"]["get"]["parameters"]["query"]>;
/** The log page's filters (paging aside): what the export takes too. */
export type AuditFilter = Omit<LogQuery, "size" | "cursor">;

export const AUDIT_PAGE_SIZE = 50;

export const auditKeys = {
  all: ["audit"] as const,
  log: (filter: AuditFilter) => [...auditKeys.all, "log", filter] as const,
};

export const fetchAuditPage = (filter: AuditFilter, cursor: string | undefined): Promise<AuditPage> =>
  call(api.GET("/dams/api/v1/log/logDisplay", { params: { query: { ...filter, size: AUDIT_PAGE_SIZE, cursor } } }));

/** The log, newest first, one page after another (keyset: "more" asks for the next). */
export const useAuditLog = (filter: AuditFilter) =>
  useInfiniteQuery({
    queryKey: auditKeys.log(filter),
    queryFn: ({ pageParam }) => fetchAuditPage(filter, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
    placeholderData: keepPreviousData,
  });

/** The storage monitor's integrity checks: every stored original read back and compared with its SHA-256. */
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { api, call } from "./client";
import { useRefreshingWrite } from "./refreshing-write";
import type { components } from "./schema";

export type IntegrityCheck = components["schemas"]["IntegrityCheck"];
export type IntegrityProblem = components["schemas"]["IntegrityProblem"];

/** The page asks again this often while a check is queued or running. */
export const CHECK_POLL_MS = 1500;
const PROBLEMS_PAGE = 50;

export const integrityCheckKeys = {
  all: ["integrity-checks"] as const,
  latest: () => [...integrityCheckKeys.all, "latest"] as const,
  problems: (id: string) => [...integrityCheckKeys.all, id, "problems"] as const,
};

export const isCheckActive = (check: IntegrityCheck | null | undefined): boolean =>
  check?.state === "queued" || check?.state === "running";

/** The newest check, polled while it runs. */
export const useLatestIntegrityCheck = () =>
  useQuery({
    queryKey: integrityCheckKeys.latest(),
    queryFn: (): Promise<IntegrityCheck | null> => call(api.GET("/dams/api/v1/storage/integrity-checks/latest")),
    refetchInterval: (query) => (isCheckActive(query.state.data) ? CHECK_POLL_MS : false),
  });

/** A check's problems, a page at a time (keyset: the last key of a page). */
export const useIntegrityProblems = (id: string | undefined) =>
  useInfiniteQuery({
    queryKey: integrityCheckKeys.problems(id ?? ""),
    enabled: Boolean(id),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(
        api.GET("/dams/api/v1/storage/integrity-checks/{id}/problems", {
          params: {
            path: { id: id ?? "" },
            query: { limit: PROBLEMS_PAGE, ...(pageParam ? { after: pageParam } : {}) },
          },
        }),
      ),
    getNextPageParam: (page) => page.next ?? undefined,
  });

const useCheckWrite = <A>(write: (args: A) => Promise<unknown>) => useRefreshingWrite(integrityCheckKeys.all, write);

export const useStartIntegrityCheck = () =>
  useCheckWrite(() => call(api.POST("/dams/api/v1/storage/integrity-checks")));
export const useCancelIntegrityCheck = () =>
  useCheckWrite((id: string) =>
    call(api.POST("/dams/api/v1/storage/integrity-checks/{id}/cancel", { params: { path: { id } } })),
  );

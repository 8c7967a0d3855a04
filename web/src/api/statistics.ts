/** The header's asset counts: type, call, query keys. */
import { api, call } from "./client";
import type { components } from "./schema";

export type UsedInfo = components["schemas"]["UsedInfo"];

export const statisticsKeys = {
  all: ["statistics"] as const,
  usedInfo: () => [...statisticsKeys.all, "usedInfo"] as const,
};

/** Asset counts for the header logo: the stories of each type the user can read. */
export const fetchUsedInfo = (): Promise<UsedInfo> => call(api.GET("/dams/api/v1/statistics/usedInfo"));

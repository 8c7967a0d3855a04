import { getJson } from "./http";

export interface UsedInfo {
  photo: number;
  video: number;
  audio: number;
  composite: number;
}

/**
 * Asset counts for the header logo. The endpoint arrives in a later issue, so
 * a 404 is expected for now and stays silent.
 */
export function fetchUsedInfo(): Promise<UsedInfo> {
  return getJson<UsedInfo>("/api/v1/statistics/usedInfo", { silentStatuses: [404] });
}

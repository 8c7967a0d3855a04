import { getJson } from "./http";

export interface UsedInfo {
  photo: number;
  video: number;
  audio: number;
  composite: number;
}

/** Asset counts for the header logo: the stories of each type the user can read. */
export function fetchUsedInfo(): Promise<UsedInfo> {
  return getJson<UsedInfo>("/api/v1/statistics/usedInfo");
}

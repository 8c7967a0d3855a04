import { useQuery } from "@tanstack/react-query";
import { fetchMenus, type MenuArea } from "../api/client";
import { ApiError } from "../api/http";

export function useMenuQuery(area: MenuArea) {
  return useQuery({ queryKey: ["menus", area], queryFn: () => fetchMenus(area), staleTime: Number.POSITIVE_INFINITY });
}

export function errorStatus(error: unknown): number | null {
  return error instanceof ApiError ? error.status : null;
}

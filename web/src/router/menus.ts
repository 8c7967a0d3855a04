import { useQuery } from "@tanstack/react-query";
import { fetchMenus, type MenuArea } from "../api/client";
import { ApiError } from "../api/http";
import { hasSession } from "../api/session";

export function useMenuQuery(area: MenuArea) {
  // The menus need a token (and are filtered by the role): a guest on a page exempt from login loads none.
  return useQuery({
    queryKey: ["menus", area],
    queryFn: () => fetchMenus(area),
    staleTime: Number.POSITIVE_INFINITY,
    enabled: hasSession(),
  });
}

export function errorStatus(error: unknown): number | null {
  return error instanceof ApiError ? error.status : null;
}

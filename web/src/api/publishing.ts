/** Publishing deliveries as the publish monitor sees them: deliveries, per-channel counts, retry/cancel/resend. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, call } from "./client";
import type { PageOf } from "./paging";
import type { components, paths } from "./schema";

export type Delivery = components["schemas"]["Delivery"];
export type DeliveryState = Delivery["state"];
export type ChannelDeliveryStats = components["schemas"]["ChannelDeliveryStats"];
export type DeliveryQuery = NonNullable<paths["/dams/api/v1/publishing/deliveries"]["get"]["parameters"]["query"]>;

export const DELIVERY_STATES: DeliveryState[] = [
  "pending",
  "in_progress",
  "retrying",
  "succeeded",
  "cancelled",
  "failed",
];

/** The monitor asks again this often while it is open. */
export const DELIVERY_POLL_MS = 3000;

export const deliveryKeys = {
  all: ["deliveries"] as const,
  stats: () => [...deliveryKeys.all, "stats"] as const,
  list: (query: DeliveryQuery) => [...deliveryKeys.all, "list", query] as const,
};

export const listDeliveries = (query: DeliveryQuery): Promise<PageOf<Delivery>> =>
  call(api.GET("/dams/api/v1/publishing/deliveries", { params: { query } })) as Promise<PageOf<Delivery>>;
export const fetchChannelStats = (): Promise<ChannelDeliveryStats[]> =>
  call(api.GET("/dams/api/v1/publishing/channel-stats"));

export const useDeliveries = (query: DeliveryQuery) =>
  useQuery({
    queryKey: deliveryKeys.list(query),
    queryFn: () => listDeliveries(query),
    refetchInterval: DELIVERY_POLL_MS,
    placeholderData: keepPreviousData,
  });

export const useChannelStats = () =>
  useQuery({ queryKey: deliveryKeys.stats(), queryFn: fetchChannelStats, refetchInterval: DELIVERY_POLL_MS });

/** Retry, cancel or resend a delivery; each refreshes every delivery query. */
export function useDeliveryAction(action: "retry" | "cancel" | "resend") {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => {
      const params = { params: { path: { id } } };
      if (action === "retry") return call(api.POST("/dams/api/v1/publishing/deliveries/{id}/retry", params));
      if (action === "cancel") return call(api.POST("/dams/api/v1/publishing/deliveries/{id}/cancel", params));
      return call(api.POST("/dams/api/v1/publishing/deliveries/{id}/resend", params));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveryKeys.all }),
  });
}

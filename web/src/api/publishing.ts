/** Publishing deliveries as the publish monitor sees them: deliveries, per-channel counts, retry/cancel/resend. */
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { createParser } from "eventsource-parser";
import { useEffect, useState } from "react";
import { api, call, pageOrigin } from "./client";
import { bearerToken } from "./http";
import type { PageOf } from "./paging";
import { useRefreshingWrite } from "./refreshing-write";
import type { components, paths } from "./schema";

export type Delivery = components["schemas"]["Delivery"];
export type DeliveryState = Delivery["state"];
export type ChannelDeliveryStats = components["schemas"]["ChannelDeliveryStats"];
export type BatchPublishResult = components["schemas"]["BatchPublishResult"];
export type StoryRef = { libraryId: string; storyId: string };
export type DeliveryQuery = NonNullable<paths["/dams/api/v1/publishing/deliveries"]["get"]["parameters"]["query"]>;

export const DELIVERY_STATES: DeliveryState[] = [
  "pending",
  "in_progress",
  "retrying",
  "succeeded",
  "cancelled",
  "failed",
];

/** The tag colour of each delivery state (the publish monitor and the viewer's 发布记录 tab). */
export const DELIVERY_STATE_COLORS: Record<DeliveryState, string> = {
  pending: "default",
  in_progress: "processing",
  retrying: "warning",
  succeeded: "success",
  cancelled: "default",
  failed: "error",
};

/** The monitor asks again this often while its live stream is down. */
export const DELIVERY_POLL_MS = 3000;
/** A change on the stream reloads the monitor's queries after this pause (a burst of changes, one reload). */
const STREAM_RELOAD_MS = 300;
/** The stream is opened again this long after it dropped. */
const STREAM_RECONNECT_MS = 3000;

export const deliveryKeys = {
  all: ["deliveries"] as const,
  stats: () => [...deliveryKeys.all, "stats"] as const,
  list: (query: DeliveryQuery) => [...deliveryKeys.all, "list", query] as const,
  /** One story's deliveries (the publish dialog and the viewer's 发布记录 tab). */
  story: (libraryId: string, storyId: string) => [...deliveryKeys.all, "story", libraryId, storyId] as const,
};

export const listDeliveries = (query: DeliveryQuery): Promise<PageOf<Delivery>> =>
  call(api.GET("/dams/api/v1/publishing/deliveries", { params: { query } })) as Promise<PageOf<Delivery>>;
export const fetchChannelStats = (): Promise<ChannelDeliveryStats[]> =>
  call(api.GET("/dams/api/v1/publishing/channel-stats"));

/** One story's deliveries, newest first, and its embargo: the query of the publish dialog and the viewer's 发布记录 tab. */
export const storyDeliveriesQuery = (libraryId: string, storyId: string) =>
  queryOptions({
    queryKey: deliveryKeys.story(libraryId, storyId),
    queryFn: () =>
      call(
        api.GET("/dams/api/v1/publishing/{libraryId}/{storyId}/deliveries", {
          params: { path: { libraryId, storyId } },
        }),
      ),
  });

/** `live`: the stream is up, so the queries are reloaded by its events instead of polled. */
export const useDeliveries = (query: DeliveryQuery, live = false) =>
  useQuery({
    queryKey: deliveryKeys.list(query),
    queryFn: () => listDeliveries(query),
    refetchInterval: live ? false : DELIVERY_POLL_MS,
    placeholderData: keepPreviousData,
  });

export const useChannelStats = (live = false) =>
  useQuery({
    queryKey: deliveryKeys.stats(),
    queryFn: fetchChannelStats,
    refetchInterval: live ? false : DELIVERY_POLL_MS,
  });

/** Publishes a grid selection: per story its deliveries, or why it was refused. */
export const publishSelection = (body: {
  stories: StoryRef[];
  channels: string[];
  publishAt?: string | null;
}): Promise<BatchPublishResult[]> => call(api.POST("/dams/api/v1/publishing/batch", { body }));

/** Per channel, how many of the stories already went there. */
export const fetchDeliveredCounts = (stories: StoryRef[]): Promise<{ channelId: string; stories: number }[]> =>
  call(api.POST("/dams/api/v1/publishing/delivered-counts", { body: { stories } }));

/**
 * The publish monitor's live stream (`GET /publishing/events`, Server-Sent
 * Events read with fetch, so the bearer token travels in its header): every
 * change reloads the delivery queries. Answers the stream's state: `connecting`
 * until its first connection is up or has failed, `live` while it is up, `down`
 * after it failed or closed (then it is opened again). The page polls whenever
 * it is not `live`, and says the live updates are interrupted only when `down`.
 */
export type DeliveryStreamState = "connecting" | "live" | "down";

export function useDeliveryStream(): DeliveryStreamState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<DeliveryStreamState>("connecting");
  useEffect(() => {
    let stopped = false;
    let controller: AbortController | undefined;
    let reload: ReturnType<typeof setTimeout> | undefined;
    let reconnect: ReturnType<typeof setTimeout> | undefined;
    const reloadSoon = () => {
      if (reload) return;
      reload = setTimeout(() => {
        reload = undefined;
        void queryClient.invalidateQueries({ queryKey: deliveryKeys.all });
      }, STREAM_RELOAD_MS);
    };
    const connect = async () => {
      controller = new AbortController();
      try {
        const token = await bearerToken();
        const response = await fetch(`${pageOrigin}/dams/api/v1/publishing/events`, {
          headers: { accept: "text/event-stream", ...(token ? { authorization: `Bearer ${token}` } : {}) },
          signal: controller.signal,
        });
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        const parser = createParser({
          onEvent: (event) => {
            if (event.event === "ready") {
              setState("live");
              // Whatever changed while the stream was down.
              reloadSoon();
            } else if (event.event === "delivery" || event.event === "resync") reloadSoon();
          },
        });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
      } catch {
        // Dropped or refused: poll meanwhile, and try again.
      }
      if (stopped) return;
      setState("down");
      reconnect = setTimeout(() => void connect(), STREAM_RECONNECT_MS);
    };
    void connect();
    return () => {
      stopped = true;
      controller?.abort();
      clearTimeout(reload);
      clearTimeout(reconnect);
    };
  }, [queryClient]);
  return state;
}

/** Retry, cancel or resend a delivery; each refreshes every delivery query. */
export const useDeliveryAction = (action: "retry" | "cancel" | "resend") =>
  useRefreshingWrite(deliveryKeys.all, (id: string) => {
    const params = { params: { path: { id } } };
    if (action === "retry") return call(api.POST("/dams/api/v1/publishing/deliveries/{id}/retry", params));
    if (action === "cancel") return call(api.POST("/dams/api/v1/publishing/deliveries/{id}/cancel", params));
    return call(api.POST("/dams/api/v1/publishing/deliveries/{id}/resend", params));
  });

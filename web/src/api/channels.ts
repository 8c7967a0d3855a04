/** Publishing channels (docs/publishing.md): list, write (credentials write-only), delete, test, and their last delivery. */
import { useQuery } from "@tanstack/react-query";
import { api, call } from "./client";
import type { ListQuery, Page } from "./paging";
import type { ChannelDeliveryStats } from "./publishing";
import { CONFLICT } from "./resource";
import type { components } from "./schema";

export type Channel = components["schemas"]["Channel"];
export type ChannelWrite = components["schemas"]["ChannelWrite"];
export type ChannelKind = Channel["kind"];
export type ChannelFormat = Channel["format"];
export type ChannelTestResult = components["schemas"]["ChannelTestResult"];

/** The enabled channels a story may be sent to (id and name): the publish dialogs and the actions' publish step. */
export const useChannelOptions = () =>
  useQuery({
    queryKey: ["channels", "options"],
    queryFn: () => call(api.GET("/dams/api/v1/channels/options")),
  });

export {
  CHANNEL_FORMATS,
  CHANNEL_KINDS,
  CREDENTIAL_FIELDS,
  MAPPING_SOURCE,
  MAPPING_SOURCES,
  MAPPING_TARGETS,
} from "@shared/channels";

export const channelKeys = {
  all: ["channels"] as const,
  lastDeliveries: () => [...channelKeys.all, "last-deliveries"] as const,
};

const byId = (id: string) => ({ params: { path: { id } } });

export const fetchChannels = (): Promise<Channel[]> => call(api.GET("/dams/api/v1/channels"));

/** The channel list as the management table pages it: filtered by name or kind, in name order. */
export async function listChannels(query: ListQuery): Promise<Page<Channel>> {
  const keyword = query.keyword?.trim().toLowerCase();
  const all = (await fetchChannels()).filter(
    (channel) => !keyword || channel.name.toLowerCase().includes(keyword) || channel.kind === keyword,
  );
  return { content: all.slice(query.page * query.size, (query.page + 1) * query.size), totalElements: all.length };
}

export const createChannel = (body: ChannelWrite): Promise<Channel> =>
  call(api.POST("/dams/api/v1/channels", { body }), CONFLICT);
export const updateChannel = (id: string, body: ChannelWrite): Promise<Channel> =>
  call(api.PUT("/dams/api/v1/channels/{id}", { ...byId(id), body }), CONFLICT);
export const deleteChannel = (id: string): Promise<null> => call(api.DELETE("/dams/api/v1/channels/{id}", byId(id)));
/** "Test connection": 200 either way, with the server's reason. */
export const testChannel = (id: string): Promise<ChannelTestResult> =>
  call(api.POST("/dams/api/v1/channels/{id}/test", byId(id)));

/**
 * Each channel's newest delivery (state, when) and last error, from the publish monitor's figures. Silent: a
 * user who may manage channels but not see the monitor gets the list without this column's data.
 */
export const useLastDeliveries = () =>
  useQuery({
    queryKey: channelKeys.lastDeliveries(),
    queryFn: async (): Promise<Map<string, ChannelDeliveryStats>> => {
      const rows: ChannelDeliveryStats[] = await call(api.GET("/dams/api/v1/publishing/channel-stats"), {
        silent: true,
      });
      return new Map(rows.map((row) => [row.channelId, row]));
    },
    refetchInterval: 5000,
    retry: false,
  });

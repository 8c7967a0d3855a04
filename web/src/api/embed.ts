/** The embeddable pages' allow-list (docs/embedding.md): public, asked before there may be a session. */
import { call } from "./client";
import { publicApi } from "./public-client";
import type { components } from "./schema";

export type EmbedConfig = components["schemas"]["EmbedConfig"];

export const embedKeys = {
  config: () => ["embed", "config"] as const,
};

/** The origins allowed to frame the embeddable pages; a failure is the page's to show. */
export const fetchEmbedConfig = (): Promise<EmbedConfig> =>
  call(publicApi.GET("/dams/api/v1/embed/config"), { silent: true });

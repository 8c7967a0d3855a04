import createClient from "openapi-fetch";
import { pageOrigin, querySerializer } from "./client";
import { ApiError, REQUEST_TIMEOUT_MS } from "./http";
import type { paths } from "./schema";

/**
 * The typed client for public routes called before or without a session (the
 * sign-in pages, the embed allow-list): no token is sent, so an expired
 * session is never refreshed or ended by them.
 */
export const publicApi = createClient<paths>({
  baseUrl: pageOrigin,
  querySerializer,
  fetch: async (request) => {
    try {
      return await fetch(new Request(request, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }));
    } catch (cause) {
      throw new ApiError(null, cause instanceof Error ? cause.message : String(cause));
    }
  },
});

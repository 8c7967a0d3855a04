import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ok, page } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { currentUser } from "../auth/auth.plugin.js";
import { can } from "../auth/route-config.js";
import { fetchBody, fetchesQuery, fetchIdParams, rateQuery, urlFetchSchema } from "./url-ingest.schema.js";
import type { UrlIngestService } from "./url-ingest.service.js";

const PERMISSION = "upload.download";

/** The download centre: fetch media from a URL into a library (docs/url-ingest.md). */
export function urlIngestRoutes(service: UrlIngestService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      "/thirdfiledownload/download/action/asy",
      apiRoute(
        can(PERMISSION, "add"),
        {
          tags: ["url-ingest"],
          summary: "Fetch an image, video or audio file from a URL into a library, in the background",
          description:
            "Write access to the library (default `material`). Only http and https URLs of public addresses: loopback, private, link-local, unique-local, multicast and CGNAT addresses (also as IPv4-mapped IPv6, and through redirects or DNS) are refused with 400 `url_refused` and the reason. The file's type is checked by its content once fetched; a refused type, a response over the size limit or a redirect to a private address fails the fetch with its reason (poll GET /video-download/rate). An HLS playlist (VOD, unencrypted) is fetched segment by segment, each segment's address checked, and joined into one MP4. A refusal carries `msgCode` and `msgParams` beside `msg`.",
          body: fetchBody,
        },
        urlFetchSchema,
      ),
      async (request) => ok(await service.start(currentUser(request), request.body)),
    );
    app.get(
      "/video-download/rate",
      apiRoute(
        can(PERMISSION, "query"),
        {
          tags: ["url-ingest"],
          summary: "Progress of the user's latest fetch of a URL",
          description:
            "`progress` 0-100 (100 when the story exists; by segments for an HLS stream, by Content-Length otherwise), `state` queued/running/done/failed/cancelled, `error` the reason of a failure (with `errorCode`/`errorParams` for the user's language). Poll until done, failed or cancelled.",
          querystring: rateQuery,
        },
        urlFetchSchema,
      ),
      async (request) => ok(await service.rate(currentUser(request), request.query.url)),
    );
    app.get(
      "/thirdfiledownload/downloads",
      apiRoute(
        can(PERMISSION, "query"),
        { tags: ["url-ingest"], summary: "The user's fetches, newest first", querystring: fetchesQuery },
        page(urlFetchSchema),
      ),
      async (request) => ok(await service.list(currentUser(request), request.query.page, request.query.size)),
    );
    app.post(
      "/thirdfiledownload/downloads/:id/retry",
      apiRoute(
        can(PERMISSION, "add"),
        {
          tags: ["url-ingest"],
          summary: "Fetch a failed or cancelled URL again",
          description: "Only the user's own fetches, only when failed or cancelled (409 otherwise).",
          params: fetchIdParams,
        },
        urlFetchSchema,
      ),
      async (request) => ok(await service.retry(currentUser(request), request.params.id)),
    );
    app.post(
      "/thirdfiledownload/downloads/:id/cancel",
      apiRoute(
        can(PERMISSION, "add"),
        {
          tags: ["url-ingest"],
          summary: "Cancel a queued or running fetch",
          description:
            "Only the user's own fetches, only while queued or running (409 otherwise). A running fetch stops at once (its connections and ffmpeg are stopped, its temporary files removed); nothing is stored. The fetch shows `cancelled` and may be retried.",
          params: fetchIdParams,
        },
        urlFetchSchema,
      ),
      async (request) => ok(await service.cancel(currentUser(request), request.params.id)),
    );
  };
}

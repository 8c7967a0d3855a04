import type { FastifyContextConfig, FastifyInstance, FastifyRequest, FastifyTypeProviderDefault } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok, okPage, type PageQuery, page } from "./envelope.js";
import { apiRoute } from "./route.js";

// biome-ignore lint/suspicious/noExplicitAny: any server, logger and raw types; only the type provider matters here.
type ZodApp = FastifyInstance<any, any, any, any, ZodTypeProvider>;

/** One route of a resource: who may call it, what the OpenAPI document says of it, and the service call behind it. */
interface CrudRoute<Run> {
  config: FastifyContextConfig;
  summary: string;
  description?: string;
  run: Run;
}

/**
 * The list / create / update / delete routes of a back-area resource, declared as configuration:
 * `GET path` (paged), `POST path`, `PUT itemPath` and `DELETE itemPath` (answering null). Each part is optional;
 * a resource's other routes stay beside the call.
 */
export interface CrudResource<
  Item extends z.ZodType,
  Body extends z.ZodType,
  Params extends z.ZodType,
  Query extends z.ZodType<PageQuery>,
  UpdateBody extends z.ZodType = Body,
> {
  tags: string[];
  /** The collection, e.g. `/metadata-templates`. */
  path: string;
  /** One member, e.g. `/metadata-templates/:templateId` (its parameters are `params`). */
  itemPath: string;
  item: Item;
  body: Body;
  /** What `PUT itemPath` takes when it differs from what `POST path` takes (`body`). */
  updateBody?: UpdateBody;
  params: Params;
  list?: CrudRoute<
    (query: z.infer<Query>, request: FastifyRequest) => Promise<{ content: z.input<Item>[]; total: number }>
  > & {
    querystring: Query;
  };
  create?: CrudRoute<(body: z.infer<Body>, request: FastifyRequest) => Promise<z.input<Item>>>;
  update?: CrudRoute<
    (params: z.infer<Params>, body: z.infer<UpdateBody>, request: FastifyRequest) => Promise<z.input<Item>>
  >;
  remove?: CrudRoute<(params: z.infer<Params>, request: FastifyRequest) => Promise<unknown>>;
  /** Registers the resource's other collection routes after list and create, before the member routes (the order
   * the OpenAPI document lists them in). */
  collectionExtras?: () => void;
}

function described(summary: string, description: string | undefined) {
  return description === undefined ? { summary } : { summary, description };
}

/** Registers a resource's CRUD routes on `app`, in the order list, create, (extras), update, delete. */
export function crudRoutes<
  Item extends z.ZodType,
  Body extends z.ZodType,
  Params extends z.ZodType,
  Query extends z.ZodType<PageQuery>,
  UpdateBody extends z.ZodType = Body,
>(zodApp: ZodApp, resource: CrudResource<Item, Body, Params, Query, UpdateBody>): void {
  const { tags, path, itemPath, item, body, params, list, create, update, remove, collectionExtras } = resource;
  const updateBody = resource.updateBody ?? body;
  // The answers are checked against `item` at run time by the Zod serializer; the type provider cannot follow a
  // generic schema, so the handlers are typed by the `run` functions instead.
  const routes = zodApp.withTypeProvider<FastifyTypeProviderDefault>();
  if (list) {
    routes.get(
      path,
      apiRoute(
        list.config,
        { tags, ...described(list.summary, list.description), querystring: list.querystring },
        page(item),
      ),
      async (request) => {
        const query = request.query as z.infer<Query>;
        return okPage(await list.run(query, request), query);
      },
    );
  }
  if (create) {
    routes.post(
      path,
      apiRoute(create.config, { tags, ...described(create.summary, create.description), body }, item),
      async (request) => ok(await create.run(request.body as z.infer<Body>, request)),
    );
  }
  collectionExtras?.();
  if (update) {
    routes.put(
      itemPath,
      apiRoute(
        update.config,
        { tags, ...described(update.summary, update.description), params, body: updateBody },
        item,
      ),
      async (request) =>
        ok(await update.run(request.params as z.infer<Params>, request.body as z.infer<UpdateBody>, request)),
    );
  }
  if (remove) {
    routes.delete(
      itemPath,
      apiRoute(remove.config, { tags, ...described(remove.summary, remove.description), params }, z.null()),
      async (request) => {
        await remove.run(request.params as z.infer<Params>, request);
        return ok(null);
      },
    );
  }
}

/**
 * The calls of a resource the API keeps at a paged collection path (`GET` lists, `POST` adds) and an item path
 * with one path parameter (`PUT` changes, `DELETE` removes): one typed helper instead of four wrappers a resource.
 * The row, input and answer types come from the generated schema, so a change of the API shows at compile time.
 */
import type { JsonBody } from "./bodies";
import { api, call } from "./client";
import type { CallOptions } from "./http";
import type { ListQuery, Page, ResourceCalls } from "./paging";
import type { paths } from "./schema";

/** The envelope's `data` of an endpoint's 200 answer. */
type Answer<P extends keyof paths, M extends "get" | "post" | "put" | "delete"> = paths[P][M] extends {
  responses: { 200: { content: { "application/json": { data: infer D } } } };
}
  ? D
  : never;

/** A path whose GET answers a page of rows. */
type PagedPath = {
  [P in keyof paths]: paths[P] extends { get: unknown }
    ? [Answer<P, "get">] extends [never]
      ? never
      : Answer<P, "get"> extends Page<unknown>
        ? P
        : never
    : never;
}[keyof paths];

/** A path whose GET answers a page of rows and whose POST adds one. */
type CollectionPath = PagedPath & PathWith<"post">;

/** A path with one parameter whose PUT changes the row and whose DELETE removes it. */
type ItemPath = {
  [P in keyof paths]: paths[P] extends { put: unknown; delete: unknown } ? P : never;
}[keyof paths];

/** A path that answers a method (the spec's older resources spread their calls over several paths). */
type PathWith<M extends "get" | "post" | "put" | "delete"> = {
  [P in keyof paths]: paths[P] extends { [K in M]: unknown } ? P : never;
}[keyof paths];

/** The row a collection path pages through. */
export type RowOf<C extends PagedPath> = Answer<C, "get"> extends Page<infer T> ? T : never;

/** The path parameter of an item path (`/roles/{id}` → `"id"`). */
type ParamOf<I extends string> = I extends `${string}{${infer Name}}` ? Name : never;

// The paths are generic in these helpers, so openapi-fetch cannot check the init per path; their signatures do.
const untyped = api as unknown as Record<"GET" | "POST" | "PUT" | "DELETE", (path: string, init: object) => never>;

/** A refusal the screen explains with the server's message (name taken, entry in use). */
export const CONFLICT: CallOptions = { silentStatuses: [409] };

interface ResourceOptions {
  /** How a refused delete is reported; default: the screen explains a 409 itself. */
  remove?: CallOptions;
}

/** A resource's four calls, each with the answer type of its endpoint. */
type TypedCalls<Row, Input, Created, Updated, Removed> = ResourceCalls<Row, Input> & {
  list: (query: ListQuery) => Promise<Page<Row>>;
  create: (input: Input) => Promise<Created>;
  update: (id: string, input: Input) => Promise<Updated>;
  remove: (id: string) => Promise<Removed>;
};

/**
 * The calls of one resource by its two paths; writes leave a 409 to the screen.
 * The input type is the collection's POST body unless the caller names a narrower one.
 */
export function restCalls<C extends CollectionPath, I extends ItemPath, Input = JsonBody<C, "post">>(
  collection: C,
  item: I,
  options: ResourceOptions = {},
): TypedCalls<RowOf<C>, Input, Answer<C, "post">, Answer<I, "put">, Answer<I, "delete">> {
  const param = item.slice(item.indexOf("{") + 1, item.indexOf("}")) as ParamOf<I>;
  const byId = (id: string) => ({ params: { path: { [param]: id } } });
  return {
    list: (query) => call(untyped.GET(collection, { params: { query } })),
    create: (body) => call(untyped.POST(collection, { body }), CONFLICT),
    update: (id, body) => call(untyped.PUT(item, { ...byId(id), body }), CONFLICT),
    remove: (id) => call(untyped.DELETE(item, byId(id)), options.remove ?? CONFLICT),
  };
}

/** The four paths of one of the spec's older resources (tags, themes, sources, keywords, authors). */
interface SpecPaths<
  L extends PagedPath,
  C extends PathWith<"post">,
  U extends PathWith<"put">,
  R extends PathWith<"delete">,
> {
  list: L;
  create: C;
  /** PUT with the id in the body. */
  update: U;
  /** DELETE with the id as the path's one parameter, `{id}`. */
  remove: R;
}

/** The calls of a resource on the spec's own paths: its PUT carries the id in the body; every write leaves a 409 to the screen. */
export function specCalls<
  L extends PagedPath,
  C extends PathWith<"post">,
  U extends PathWith<"put">,
  R extends PathWith<"delete">,
  Input = JsonBody<C, "post">,
>(paths: SpecPaths<L, C, U, R>): TypedCalls<RowOf<L>, Input, Answer<C, "post">, Answer<U, "put">, Answer<R, "delete">> {
  return {
    list: (query) => call(untyped.GET(paths.list, { params: { query } })),
    create: (body) => call(untyped.POST(paths.create, { body }), CONFLICT),
    update: (id, body) => call(untyped.PUT(paths.update, { body: { ...(body as object), id } }), CONFLICT),
    remove: (id) => call(untyped.DELETE(paths.remove, { params: { path: { id } } }), CONFLICT),
  };
}

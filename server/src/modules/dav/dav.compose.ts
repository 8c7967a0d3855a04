import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import type { BlobStore } from "../blobs/blob-store.js";
import type { DiskService } from "../disk/disk.service.js";
import type { DiskSharesService } from "../disk/disk-shares.service.js";
import { davRoutes } from "./dav.routes.js";
import { DavService } from "./dav.service.js";
import { LibraryTree, type LibraryTreeDependencies } from "./dav-library-tree.js";
import { OwnDiskTree, SharedDiskTree } from "./dav-tree.js";

/** Where the caller's own disk is served over WebDAV; the API's authentication hook guards it with Basic credentials. */
export const DAV_PREFIX = "/dav";
/** The libraries the caller may read, read-only (a mount of its own: no name of the disk can meet it). */
export const DAV_LIBRARIES_PREFIX = "/dav-libraries";
/** The disk items colleagues shared with the caller, at the share's level. */
export const DAV_SHARED_PREFIX = "/dav-shared";
/** Every WebDAV mount (the auth hook's Basic prefixes). */
export const DAV_PREFIXES = [DAV_PREFIX, DAV_LIBRARIES_PREFIX, DAV_SHARED_PREFIX] as const;

/** The WebDAV methods Fastify does not know by itself (RFC 4918), all with a body. */
export const DAV_METHODS = ["PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK"] as const;

export interface DavModuleDependencies {
  disk: DiskService;
  diskShares: Pick<DiskSharesService, "sharedWithMe">;
  libraries: LibraryTreeDependencies;
  blobs: BlobStore;
  workDir: string;
}

export interface DavModule {
  /** The caller's own disk (`/dav`). */
  service: DavService;
  libraries: DavService;
  shared: DavService;
  /** Teaches the root instance the WebDAV methods (before any route is declared with them). */
  registerMethods(app: FastifyInstance): void;
  routes: FastifyPluginAsync;
}

/** Builds WebDAV's three mounts once (app.ts): the disk, what was shared with the caller, the libraries. */
export function buildDav(deps: DavModuleDependencies): DavModule {
  const common = { blobs: deps.blobs, workDir: deps.workDir, readOnlyPrefixes: [DAV_LIBRARIES_PREFIX] };
  const service = new DavService({ ...common, tree: new OwnDiskTree(deps.disk), prefix: DAV_PREFIX });
  const shared = new DavService({
    ...common,
    tree: new SharedDiskTree(deps.disk, deps.diskShares),
    prefix: DAV_SHARED_PREFIX,
  });
  const libraries = new DavService({ ...common, tree: new LibraryTree(deps.libraries), prefix: DAV_LIBRARIES_PREFIX });
  return {
    service,
    libraries,
    shared,
    registerMethods(app) {
      for (const method of DAV_METHODS) {
        if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
      }
    },
    routes: async (app) => {
      await app.register(davRoutes({ prefix: DAV_PREFIX, methods: DAV_METHODS, dav: service }));
      await app.register(davRoutes({ prefix: DAV_SHARED_PREFIX, methods: DAV_METHODS, dav: shared }));
      // Reading a library's files is what its downloads need: the catalogue's permission, through the auth hook.
      await app.register(
        davRoutes({
          prefix: DAV_LIBRARIES_PREFIX,
          methods: DAV_METHODS,
          dav: libraries,
          access: { permission: "search", action: "get" },
        }),
      );
    },
  };
}

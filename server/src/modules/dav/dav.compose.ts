import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import type { BlobStore } from "../blobs/blob-store.js";
import type { DiskService } from "../disk/disk.service.js";
import { davRoutes } from "./dav.routes.js";
import { DavService } from "./dav.service.js";

/** Where the disk is served over WebDAV; the API's authentication hook guards it with Basic credentials. */
export const DAV_PREFIX = "/dav";

/** The WebDAV methods Fastify does not know by itself (RFC 4918), all with a body. */
export const DAV_METHODS = ["PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK"] as const;

export interface DavModuleDependencies {
  disk: DiskService;
  blobs: BlobStore;
  workDir: string;
}

export interface DavModule {
  service: DavService;
  /** Teaches the root instance the WebDAV methods (before any route is declared with them). */
  registerMethods(app: FastifyInstance): void;
  routes: FastifyPluginAsync;
}

/** Builds WebDAV over the network disk once (app.ts). */
export function buildDav(deps: DavModuleDependencies): DavModule {
  const service = new DavService({ disk: deps.disk, blobs: deps.blobs, workDir: deps.workDir, prefix: DAV_PREFIX });
  return {
    service,
    registerMethods(app) {
      for (const method of DAV_METHODS) {
        if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
      }
    },
    routes: davRoutes({ prefix: DAV_PREFIX, methods: DAV_METHODS, dav: service }),
  };
}

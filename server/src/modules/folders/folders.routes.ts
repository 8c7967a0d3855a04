import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { commonErrorResponses, errorEnvelope, ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { currentUser } from "../auth/auth.plugin.js";
import { inLibrary } from "../auth/route-config.js";
import {
  createFolderBody,
  folderNodeSchema,
  folderParams,
  folderSchema,
  folderTreeParams,
  updateFolderBody,
} from "./folders.schema.js";
import type { FoldersService } from "./folders.service.js";

const errors = {
  ...commonErrorResponses,
  401: errorEnvelope,
  403: errorEnvelope,
  404: errorEnvelope,
  409: errorEnvelope,
};

/**
 * Story management (the story list page) holds the folder actions; changing a
 * library's folders also takes the manage level on it (issue 15: "for users
 * with manage rights on the library"). Filing stories in a folder is a story
 * edit (write level), not a folder change.
 */
const STORIES = "story.list";

export function foldersRoutes(folders: FoldersService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/libraries/:libraryId/folders",
      apiRoute(
        inLibrary("authenticated", "read"),
        { tags: ["folders"], summary: "The library's folder tree", params: folderTreeParams },
        z.array(folderNodeSchema),
      ),
      async (request) => ok(await folders.tree(request.params.libraryId)),
    );
    app.post(
      "/libraries/:libraryId/folders",
      apiRoute(
        inLibrary({ permission: STORIES, action: "add" }, "manage"),
        {
          tags: ["folders"],
          summary: "Create a folder (names are unique among siblings)",
          params: folderTreeParams,
          body: createFolderBody,
        },
        folderSchema,
        errors,
      ),
      async (request) => ok(await folders.create(request.params.libraryId, request.body, currentUser(request).id)),
    );
    app.put(
      "/libraries/:libraryId/folders/:folderId",
      apiRoute(
        inLibrary({ permission: STORIES, action: "edit" }, "manage"),
        {
          tags: ["folders"],
          summary: "Rename a folder, move it under another parent or change its sort order",
          params: folderParams,
          body: updateFolderBody,
        },
        folderSchema,
        errors,
      ),
      async (request) => ok(await folders.update(request.params.libraryId, request.params.folderId, request.body)),
    );
    app.delete(
      "/libraries/:libraryId/folders/:folderId",
      apiRoute(
        inLibrary({ permission: STORIES, action: "delete" }, "manage"),
        {
          tags: ["folders"],
          summary: "Delete an empty folder (409 while it holds sub-folders or stories)",
          params: folderParams,
        },
        z.null(),
        errors,
      ),
      async (request) => {
        await folders.delete(request.params.libraryId, request.params.folderId);
        return ok(null);
      },
    );
  };
}

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { commonErrorResponses, envelope, errorEnvelope, ok } from "../../http/envelope.js";
import { currentUser } from "../auth/auth.plugin.js";
import { visibleMenu } from "./menu-visibility.js";
import { menuItemSchema } from "./menus.schema.js";
import type { MenusService } from "./menus.service.js";

const menuResponse = { 200: envelope(z.array(menuItemSchema)), ...commonErrorResponses, 401: errorEnvelope };

export function menusRoutes(menus: MenusService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/user-menus",
      {
        config: { access: "authenticated" },
        schema: { tags: ["menus"], summary: "The front area's menu, filtered by the role", response: menuResponse },
      },
      async (request) => ok(visibleMenu(await menus.menuTree("user"), currentUser(request))),
    );
    app.get(
      "/admin-menus",
      {
        config: { access: "authenticated" },
        schema: {
          tags: ["menus"],
          summary: "The back area's menu, filtered by the role (empty without any)",
          response: menuResponse,
        },
      },
      async (request) => ok(visibleMenu(await menus.menuTree("admin"), currentUser(request))),
    );
  };
}

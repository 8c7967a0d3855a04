import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { commonErrorResponses, envelope, ok } from "../../http/envelope.js";
import { menuItemSchema } from "./menus.schema.js";
import type { MenusService } from "./menus.service.js";

const menuResponse = { 200: envelope(z.array(menuItemSchema)), ...commonErrorResponses };

export function menusRoutes(menus: MenusService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/user-menus",
      { schema: { tags: ["menus"], summary: "The front area's menu (top navigation)", response: menuResponse } },
      async () => ok(await menus.menuTree("user")),
    );
    app.get(
      "/admin-menus",
      { schema: { tags: ["menus"], summary: "The back area's menu (side navigation)", response: menuResponse } },
      async () => ok(await menus.menuTree("admin")),
    );
  };
}

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { crudRoutes } from "../../http/crud-routes.js";
import { ok, page, toPage } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import { can } from "../auth/route-config.js";
import {
  actionRuleBody,
  actionRuleSchema,
  actionRunSchema,
  ruleIdParams,
  ruleListQuery,
  runListQuery,
} from "./actions.schema.js";
import type { ActionsService } from "./actions.service.js";

const PERMISSION = "manage.setting.action";

/** /action-rules: automation rules (/manage/setting/action) and their runs. */
export function actionsRoutes(actions: ActionsService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ["actions"];
    crudRoutes(app, {
      tags,
      path: "/action-rules",
      itemPath: "/action-rules/:ruleId",
      item: actionRuleSchema,
      body: actionRuleBody,
      params: ruleIdParams,
      list: {
        config: can(PERMISSION, "query"),
        summary: "Automation rules, by name, each with its newest run's state",
        querystring: ruleListQuery,
        run: (query) => actions.list(query),
      },
      create: {
        config: can(PERMISSION, "add"),
        summary: "Create an automation rule (it acts as its author)",
        run: (body, request) => actions.create(actorOf(request), body),
      },
      // Registered between create and update, so the OpenAPI document lists get, put, delete under the member path.
      collectionExtras: () =>
        app.get(
          "/action-rules/:ruleId",
          apiRoute(
            can(PERMISSION, "query"),
            { tags, summary: "One automation rule", params: ruleIdParams },
            actionRuleSchema,
          ),
          async (request) => ok(await actions.get(request.params.ruleId)),
        ),
      update: {
        config: can(PERMISSION, "edit"),
        summary: "Edit an automation rule (it then acts as the editor)",
        run: ({ ruleId }, body, request) => actions.update(actorOf(request), ruleId, body),
      },
      remove: {
        config: can(PERMISSION, "delete"),
        summary: "Delete an automation rule and its runs",
        run: ({ ruleId }, request) => actions.remove(actorOf(request), ruleId),
      },
    });
    for (const action of ["enable", "disable"] as const) {
      app.post(
        `/action-rules/:ruleId/${action}`,
        apiRoute(
          can(PERMISSION, action),
          { tags, summary: `${action === "enable" ? "Enable" : "Disable"} a rule`, params: ruleIdParams },
          actionRuleSchema,
        ),
        async (request) => ok(await actions.setEnabled(actorOf(request), request.params.ruleId, action === "enable")),
      );
    }
    app.get(
      "/action-rules/:ruleId/runs",
      apiRoute(
        can(PERMISSION, "query"),
        {
          tags,
          summary: "A rule's runs, newest first: state, each step's outcome, error, duration",
          params: ruleIdParams,
          querystring: runListQuery,
        },
        page(actionRunSchema),
      ),
      async (request) => {
        const { content, total } = await actions.runs(request.params.ruleId, request.query);
        return ok(toPage(content, total, request.query));
      },
    );
  };
}

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorResponses, envelope, ok, okPage, page, toPage } from "../../http/envelope.js";
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
    const rule = { 200: envelope(actionRuleSchema), ...apiErrorResponses };
    app.get(
      "/action-rules",
      apiRoute(
        can(PERMISSION, "query"),
        { tags, summary: "Automation rules, by name, each with its newest run's state", querystring: ruleListQuery },
        page(actionRuleSchema),
      ),
      async (request) => okPage(await actions.list(request.query), request.query),
    );
    app.get(
      "/action-rules/:ruleId",
      {
        config: { access: { permission: PERMISSION, action: "query" } },
        schema: { tags, summary: "One automation rule", params: ruleIdParams, response: rule },
      },
      async (request) => ok(await actions.get(request.params.ruleId)),
    );
    app.post(
      "/action-rules",
      {
        config: { access: { permission: PERMISSION, action: "add" } },
        schema: {
          tags,
          summary: "Create an automation rule (it acts as its author)",
          body: actionRuleBody,
          response: rule,
        },
      },
      async (request) => ok(await actions.create(actorOf(request), request.body)),
    );
    app.put(
      "/action-rules/:ruleId",
      {
        config: { access: { permission: PERMISSION, action: "edit" } },
        schema: {
          tags,
          summary: "Edit an automation rule (it then acts as the editor)",
          params: ruleIdParams,
          body: actionRuleBody,
          response: rule,
        },
      },
      async (request) => ok(await actions.update(actorOf(request), request.params.ruleId, request.body)),
    );
    for (const action of ["enable", "disable"] as const) {
      app.post(
        `/action-rules/:ruleId/${action}`,
        {
          config: { access: { permission: PERMISSION, action } },
          schema: {
            tags,
            summary: `${action === "enable" ? "Enable" : "Disable"} a rule`,
            params: ruleIdParams,
            response: rule,
          },
        },
        async (request) => ok(await actions.setEnabled(actorOf(request), request.params.ruleId, action === "enable")),
      );
    }
    app.delete(
      "/action-rules/:ruleId",
      apiRoute(
        can(PERMISSION, "delete"),
        { tags, summary: "Delete an automation rule and its runs", params: ruleIdParams },
        z.null(),
      ),
      async (request) => {
        await actions.remove(actorOf(request), request.params.ruleId);
        return ok(null);
      },
    );
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

import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorResponses, envelope, ok, page, toPage } from "../../http/envelope.js";
import { actorOf } from "../auth/actor.js";
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
      {
        config: { access: { permission: PERMISSION, action: "query" } },
        schema: {
          tags,
          summary: "Automation rules, by name, each with its newest run's state",
          querystring: ruleListQuery,
          response: { 200: envelope(page(actionRuleSchema)), ...apiErrorResponses },
        },
      },
      async (request) => {
        const { content, total } = await actions.list(request.query);
        return ok(toPage(content, total, request.query));
      },
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
      {
        config: { access: { permission: PERMISSION, action: "delete" } },
        schema: {
          tags,
          summary: "Delete an automation rule and its runs",
          params: ruleIdParams,
          response: { 200: envelope(z.null()), ...apiErrorResponses },
        },
      },
      async (request) => {
        await actions.remove(actorOf(request), request.params.ruleId);
        return ok(null);
      },
    );
    app.get(
      "/action-rules/:ruleId/runs",
      {
        config: { access: { permission: PERMISSION, action: "query" } },
        schema: {
          tags,
          summary: "A rule's runs, newest first: state, each step's outcome, error, duration",
          params: ruleIdParams,
          querystring: runListQuery,
          response: { 200: envelope(page(actionRunSchema)), ...apiErrorResponses },
        },
      },
      async (request) => {
        const { content, total } = await actions.runs(request.params.ruleId, request.query);
        return ok(toPage(content, total, request.query));
      },
    );
  };
}

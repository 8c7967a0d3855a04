import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { commonErrorResponses, errorEnvelope, ok } from "../../http/envelope.js";
import { apiRoute } from "../../http/route.js";
import { actorOf } from "../auth/actor.js";
import { can } from "../auth/route-config.js";
import type { PropertyAccessService } from "./property-access.service.js";

const errors = { ...commonErrorResponses, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope };
/** The menu key (spec section 6 permissionId) of /manage/userrole/property. */
const PERMISSION = "manage.userrole.property";

const ruleSchema = z
  .object({
    property: z.string().trim().min(1).max(100).describe("a story property's name (a key of a story's `properties`)"),
    visible: z.boolean(),
    editable: z.boolean().describe("ignored (false) when not visible"),
  })
  .meta({ id: "PropertyRule" });
const roleParams = z.object({ roleId: z.string().min(1).max(100) });
const rulesBody = z.object({ rules: z.array(ruleSchema).max(1000) });

/** /property-access/{roleId}: field-level access of a role. */
export function propertyAccessRoutes(service: PropertyAccessService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/property-access/:roleId",
      apiRoute(
        can(PERMISSION, "query"),
        {
          tags: ["access"],
          summary: "The role's field-level rules: the properties it may not see or not edit (others: both)",
          params: roleParams,
        },
        z.array(ruleSchema),
        errors,
      ),
      async (request) => ok(await service.rulesOf(request.params.roleId)),
    );
    app.put(
      "/property-access/:roleId",
      apiRoute(
        can(PERMISSION, "edit"),
        {
          tags: ["access"],
          summary:
            "Replace the role's field-level rules. Story answers then omit the hidden properties for the role; edits of a property it may not edit answer 403 property_not_editable",
          params: roleParams,
          body: rulesBody,
        },
        z.array(ruleSchema),
        errors,
      ),
      async (request) => ok(await service.replace(actorOf(request), request.params.roleId, request.body.rules)),
    );
  };
}

import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { API_PREFIX } from "./error-handler.js";

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
export const DOCS_PATH = `${API_PREFIX}/docs`;

/** OpenAPI 3.1 generated from the route schemas; a readable page at /dams/api/v1/docs. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "dams API",
        description:
          "Digital asset management for newsrooms. Envelope: `{ code, msg, data }`; errors `{ code, msg, error }`.",
        version,
      },
      components: {
        securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => componentsByName(jsonSchemaTransformObject(input)),
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PATH, staticCSP: true, uiConfig: { deepLinking: true } });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}

/**
 * The component schemas sorted by name. They are collected in the order their modules are first imported, so
 * without this moving an import (or splitting the composition root) would reorder the committed document and the
 * web's generated types although nothing in the API changed.
 */
function componentsByName(document: OpenApiDocument): OpenApiDocument {
  if (!("components" in document) || !document.components?.schemas) return document;
  const schemas = document.components.schemas;
  const names = Object.keys(schemas).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    ...document,
    components: { ...document.components, schemas: Object.fromEntries(names.map((name) => [name, schemas[name]])) },
  } as OpenApiDocument;
}

type OpenApiDocument = ReturnType<typeof jsonSchemaTransformObject>;

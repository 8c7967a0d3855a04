import { z } from "zod";

export const apiTokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe("the first characters of the secret, to recognise it"),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: "ApiToken" });

export const createApiTokenBody = z.object({
  name: z.string().trim().min(1).max(100),
  expiresInDays: z.number().int().min(1).max(3650).optional().describe("no expiry when absent"),
});

export const createdApiTokenSchema = z.object({
  token: apiTokenSchema,
  secret: z.string().describe("shown once; send it as `Authorization: Bearer <secret>`"),
});

export const apiTokenIdParams = z.object({ id: z.uuid() });

import { z } from "zod";

/** Success envelope of DESIGN.md section 3: `{ code: 0, msg: "ok", data }`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(0), msg: z.string(), data });
}

export function ok<T>(data: T): { code: 0; msg: string; data: T } {
  return { code: 0, msg: "ok", data };
}

export const errorEnvelope = z
  .object({
    code: z.number().int().describe("the HTTP status"),
    msg: z.string().describe("a human message"),
    error: z.string().describe("a machine code"),
    msgCode: z
      .string()
      .optional()
      .describe("a stable name of the message (e.g. `fetch.address`), for showing it in the user's language"),
    msgParams: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .optional()
      .describe("the values the message names, with msgCode"),
  })
  .meta({ id: "ErrorEnvelope" });

export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/** Error responses every API route may answer with; routes add their own. */
export const commonErrorResponses = {
  400: errorEnvelope,
  500: errorEnvelope,
};

/** The error answers of a route behind the API auth hook that reads or changes something that may be missing or in conflict. */
export const apiErrorResponses = {
  ...commonErrorResponses,
  401: errorEnvelope,
  403: errorEnvelope,
  404: errorEnvelope,
  409: errorEnvelope,
};

/** Query of every list: zero-based page, size (default 10), keyword. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(0).default(0).describe("zero-based page number"),
  size: z.coerce.number().int().min(1).max(1000).default(10),
  keyword: z.string().max(200).optional(),
});

export type PageQuery = z.infer<typeof pageQuery>;

/** A page query's keyword as a case-blind LIKE pattern (compare it with a lower-cased column). */
export function keywordPattern(keyword: string): string {
  return `%${keyword.toLowerCase()}%`;
}

export function page<T extends z.ZodType>(item: T) {
  return z.object({
    content: z.array(item),
    totalElements: z.number().int(),
    size: z.number().int(),
    number: z.number().int().describe("zero-based page number"),
  });
}

export function toPage<T>(content: T[], totalElements: number, query: PageQuery) {
  return { content, totalElements, size: query.size, number: query.page };
}

/** A list's page in the envelope, from what a list answers: its rows and the total. */
export function okPage<T>({ content, total }: { content: T[]; total: number }, query: PageQuery) {
  return ok(toPage(content, total, query));
}

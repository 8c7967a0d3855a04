import { z } from "zod";
import { entryName, optionalText, sortOrder, stamps } from "../shared/catalogue-schema.js";

export const codelistSchema = z
  .object({
    id: z.string(),
    code: z.string().describe("a stable key; /codelists/codelist/option?id= accepts it as well as the id"),
    name: z.string(),
    description: z.string().nullable(),
    optionCount: z.number().int(),
    ...stamps,
  })
  .meta({ id: "Codelist" });

export const codelistInput = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, "must start with a letter and hold only letters, digits, _ . -"),
  name: entryName,
  description: optionalText(500),
});

export const codelistOptionSchema = z
  .object({
    id: z.string(),
    codelistId: z.string(),
    value: z.string().describe("what stories record"),
    label: z.string().describe("what users read"),
    sortOrder: z.number().int(),
    ...stamps,
  })
  .meta({ id: "CodelistOption" });

export const codelistOptionInput = z.object({
  value: z.string().trim().min(1, "must not be empty").max(100),
  label: z.string().trim().min(1, "must not be empty").max(200),
  sortOrder,
});

export const codelistOptionParams = z.object({ id: z.uuid(), optionId: z.uuid() });

export const optionLookupQuery = z.object({
  id: z.string().min(1).max(100).describe("the code list's id or code"),
});

export type CodelistView = z.infer<typeof codelistSchema>;
export type CodelistInput = z.infer<typeof codelistInput>;
export type CodelistOptionView = z.infer<typeof codelistOptionSchema>;
export type CodelistOptionInput = z.infer<typeof codelistOptionInput>;

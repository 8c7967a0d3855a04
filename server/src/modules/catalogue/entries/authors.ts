import { z } from "zod";
import { entryName, optionalText, stamps } from "../shared/catalogue-schema.js";
import type { EntryDefinition } from "./entry-definition.js";

/** nrauthor: a reporter, photographer or agency credited on stories. */
export const authorSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    penName: z.string().nullable(),
    department: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    description: z.string().nullable(),
    ...stamps,
  })
  .meta({ id: "CatalogueAuthor" });

export const authorInput = z.object({
  name: entryName,
  penName: optionalText(100),
  department: optionalText(100),
  phone: z
    .string()
    .trim()
    .regex(/^[0-9+\-() ]{0,32}$/, "may hold only digits, spaces and + - ( )")
    .nullish()
    .transform((value) => value || null),
  email: z
    .union([z.email(), z.literal("")])
    .nullish()
    .transform((value) => value || null),
  description: optionalText(500),
});

export type AuthorView = z.infer<typeof authorSchema>;
export type AuthorInput = z.infer<typeof authorInput>;

const text = (value: unknown) => (value as string | null) ?? null;

export const authorDefinition: EntryDefinition<AuthorView, AuthorInput> = {
  table: "authors",
  noun: "author",
  usageKind: "author",
  searchColumns: ["name", "pen_name", "department"],
  orderBy: [{ column: "name", direction: "asc" }],
  // Two reporters may share a name; not in the same department.
  uniqueColumns: ["name", "department"],
  duplicateMessage: (input) =>
    input.department
      ? `an author named "${input.name}" already exists in ${input.department}`
      : `an author named "${input.name}" without a department already exists`,
  toView: (row) => ({
    id: row.id,
    name: row.name,
    penName: text(row.pen_name),
    department: text(row.department),
    phone: text(row.phone),
    email: text(row.email),
    description: text(row.description),
    createTime: row.created_at,
    updateTime: row.updated_at,
  }),
  toColumns: (input) => ({
    pen_name: input.penName,
    department: input.department,
    phone: input.phone,
    email: input.email,
    description: input.description,
  }),
};

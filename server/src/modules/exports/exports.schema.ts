import { z } from "zod";

export const exportBody = z.object({
  table: z
    .string()
    .regex(/^[a-z][a-z0-9.-]{0,63}$/)
    .describe("which back-area table: `log`, … (docs/exports.md lists them)"),
  format: z.enum(["xlsx", "csv"]).default("xlsx"),
  filter: z
    .record(z.string(), z.unknown())
    .default({})
    .describe("the screen's filters, as its list endpoint takes them"),
  columns: z
    .array(
      z.object({
        key: z.string().min(1).max(64).describe("a column the table has"),
        title: z.string().trim().min(1).max(100).describe("the header as the screen shows it (its language)"),
        width: z.number().int().min(4).max(120).optional(),
      }),
    )
    .min(1)
    .max(60)
    .describe("the columns on screen, in order"),
  fileName: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe("the download's name without extension; default the table and the date"),
});

export type ExportBody = z.infer<typeof exportBody>;

import { randomUUID } from "node:crypto";
import { Conflict, NotFound } from "../../http/errors.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { MetadataTemplatesRepository, TemplateRow } from "./metadata-templates.repository.js";
import type { MetadataTemplateInput, MetadataTemplateView, TemplateValues } from "./metadata-templates.schema.js";

export interface TemplateVariables {
  date: string;
  user: string;
  library: string;
}

const VARIABLE = /\{(date|user|library)\}/g;

/**
 * Replaces `{date}`, `{user}` and `{library}` in one pass: what a variable
 * brings in is never read again, so a user named `{date}` stays `{date}`.
 * Values stay plain text; whoever writes them into XML or JSON escapes them
 * there (the API's JSON, a channel's XML builder).
 */
export function expandVariables(text: string, variables: TemplateVariables): string {
  return text.replace(VARIABLE, (_, name: keyof TemplateVariables) => variables[name]);
}

export function applyTemplate(values: TemplateValues, variables: TemplateVariables): TemplateValues {
  const one = (value: string | undefined) => (value === undefined ? undefined : expandVariables(value, variables));
  const many = (list: string[] | undefined) => list?.map((value) => expandVariables(value, variables));
  return {
    ...values,
    title: one(values.title),
    caption: one(values.caption),
    keywords: many(values.keywords),
    tags: many(values.tags),
    authors: many(values.authors),
    source: one(values.source),
    theme: one(values.theme),
    category: one(values.category),
    properties: values.properties
      ? Object.fromEntries(Object.entries(values.properties).map(([key, value]) => [key, one(value)!]))
      : undefined,
  };
}

function view(row: TemplateRow): MetadataTemplateView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    values: row.template_values as TemplateValues,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface MetadataTemplatesDependencies {
  templates: MetadataTemplatesRepository;
  libraries: LibrariesService;
  audit: AuditLog;
  clock?: () => Date;
}

/** Metadata templates: named story field values the upload pages apply in one click. */
export class MetadataTemplatesService {
  constructor(private readonly deps: MetadataTemplatesDependencies) {}

  #now(): Date {
    return this.deps.clock?.() ?? new Date();
  }

  async list(query: { keyword?: string; page: number; size: number }) {
    const { rows, total } = await this.deps.templates.list(query);
    return { content: rows.map(view), total };
  }

  async create(actor: Actor, input: MetadataTemplateInput): Promise<MetadataTemplateView> {
    const now = this.#now().toISOString();
    const row: TemplateRow = {
      id: randomUUID(),
      name: input.name,
      description: input.description ?? null,
      template_values: input.values,
      created_by: actor.username,
      created_at: now,
      updated_at: now,
    };
    await this.deps.templates.transaction(async (trx, templates) => {
      if (await templates.named(input.name)) throw this.#taken(input.name);
      await templates.insert(row);
      await this.deps.audit.record(trx, actor, {
        action: "metadata-template.create",
        target: { type: "metadata-template", id: row.id, label: row.name },
        after: { name: row.name, values: input.values },
      });
    });
    return view(row);
  }

  #taken(name: string): Conflict {
    return new Conflict(`name: a metadata template "${name}" exists`).withMessageCode("presets.duplicateName", {
      name,
    });
  }

  async update(actor: Actor, id: string, input: MetadataTemplateInput): Promise<MetadataTemplateView> {
    return this.deps.templates.transaction(async (trx, templates) => {
      const before = await templates.find(id);
      if (!before) throw new NotFound(`templateId: no metadata template ${id}`);
      const named = await templates.named(input.name);
      if (named && named.id !== id) throw this.#taken(input.name);
      const row: TemplateRow = {
        ...before,
        name: input.name,
        description: input.description ?? null,
        template_values: input.values,
        updated_at: this.#now().toISOString(),
      };
      await templates.update(row);
      await this.deps.audit.record(trx, actor, {
        action: "metadata-template.edit",
        target: { type: "metadata-template", id, label: row.name },
        before: { name: before.name, values: before.template_values },
        after: { name: row.name, values: input.values },
      });
      return view(row);
    });
  }

  async remove(actor: Actor, id: string): Promise<void> {
    await this.deps.templates.transaction(async (trx, templates) => {
      const row = await templates.find(id);
      if (!row) throw new NotFound(`templateId: no metadata template ${id}`);
      await templates.delete(id);
      await this.deps.audit.record(trx, actor, {
        action: "metadata-template.delete",
        target: { type: "metadata-template", id, label: row.name },
        before: { name: row.name, values: row.template_values },
      });
    });
  }

  /** Whether a template exists (a rule's step names one). */
  async exists(id: string): Promise<boolean> {
    return (await this.deps.templates.find(id)) !== undefined;
  }

  /** The template's values for the caller uploading into a library, variables replaced. */
  async apply(actor: Actor, id: string, libraryId: string): Promise<TemplateValues> {
    const row = await this.deps.templates.find(id);
    if (!row) throw new NotFound(`templateId: no metadata template ${id}`);
    const library = await this.deps.libraries.require(actor, libraryId, "read");
    const variables = {
      date: this.#now().toISOString().slice(0, 10),
      user: actor.username,
      library: library.name,
    };
    return applyTemplate(row.template_values as TemplateValues, variables);
  }
}

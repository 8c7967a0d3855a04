import { Conflict, Invalid, NotFound } from "../../../http/errors.js";
import type { CodelistRepository } from "../codelists/codelist.repository.js";
import { guardUnique } from "../shared/catalogue-errors.js";
import type { PropertyRepository } from "./property.repository.js";
import {
  needsCodelist,
  type PropertyListQuery,
  type PropertyLookupQuery,
  type StoryPropertyInput,
  type StoryPropertyView,
} from "./property.schema.js";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Why a default value does not fit its property, or null when it does.
 * Values are text: numbers, YYYY-MM-DD dates, true/false, option values
 * (comma-separated for multiselect).
 */
export function defaultValueProblem(
  input: Pick<StoryPropertyInput, "kind" | "defaultValue">,
  optionValues: readonly string[],
): string | null {
  const value = input.defaultValue;
  if (value === null) return null;
  switch (input.kind) {
    case "text":
    case "textarea":
      return null;
    case "number":
      return Number.isFinite(Number(value)) ? null : "must be a number";
    case "date":
      return DATE.test(value) && !Number.isNaN(Date.parse(value)) ? null : "must be a date written YYYY-MM-DD";
    case "switch":
      return value === "true" || value === "false" ? null : "must be true or false";
    case "select":
      return optionValues.includes(value) ? null : `must be one of the code list's values (${optionValues.join(", ")})`;
    case "multiselect": {
      const missing = value
        .split(",")
        .map((part) => part.trim())
        .filter((part) => !optionValues.includes(part));
      return missing.length === 0 ? null : `holds values the code list lacks: ${missing.join(", ")}`;
    }
  }
}

/** Custom story properties: the fields of the upload forms, per story type and library. */
export class PropertyService {
  constructor(
    private readonly properties: PropertyRepository,
    private readonly codelists: CodelistRepository,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async list(query: PropertyListQuery): Promise<{ content: StoryPropertyView[]; total: number }> {
    const { rows, total } = await this.properties.list(query);
    return { content: rows, total };
  }

  lookup(query: PropertyLookupQuery): Promise<StoryPropertyView[]> {
    return this.properties.lookup(query);
  }

  async create(input: StoryPropertyInput): Promise<StoryPropertyView> {
    const checked = await this.#check(input);
    const id = await guardUnique(
      () => this.properties.insert(checked, this.clock().toISOString()),
      () => this.#duplicate(checked),
    );
    return (await this.properties.findById(id))!;
  }

  async update(id: string, input: StoryPropertyInput): Promise<StoryPropertyView> {
    if (!(await this.properties.findById(id))) throw this.#notFound(id);
    const checked = await this.#check(input, id);
    await guardUnique(
      () => this.properties.update(id, checked, this.clock().toISOString()),
      () => this.#duplicate(checked),
    );
    return (await this.properties.findById(id))!;
  }

  async delete(id: string): Promise<void> {
    if (!(await this.properties.findById(id))) throw this.#notFound(id);
    await this.properties.delete(id);
  }

  async #check(input: StoryPropertyInput, exceptId?: string): Promise<StoryPropertyInput> {
    let optionValues: string[] = [];
    if (needsCodelist(input.kind)) {
      if (!input.codelistId) throw new Invalid(`codelistId: a ${input.kind} property needs a code list`);
      if (!(await this.codelists.findById(input.codelistId))) {
        throw new Invalid(`codelistId: no code list has the id ${input.codelistId}`);
      }
      optionValues = (await this.codelists.options(input.codelistId)).rows.map((option) => option.value);
    }
    const checked = { ...input, codelistId: needsCodelist(input.kind) ? input.codelistId : null };
    const problem = defaultValueProblem(checked, optionValues);
    if (problem) throw new Invalid(`defaultValue: ${problem}`);
    if (await this.properties.findDuplicate(checked, exceptId)) throw this.#duplicate(checked);
    return checked;
  }

  #duplicate(input: StoryPropertyInput): Conflict {
    const where = input.libraryId ? `the library ${input.libraryId}` : "every library";
    return new Conflict(
      `${input.storyType} stories already have a property named "${input.name}" in ${where}`,
      "duplicate_name",
    ).withMessageCode("catalogue.duplicateName", { name: input.name });
  }

  #notFound(id: string): NotFound {
    return new NotFound(`no story property has the id ${id}`);
  }
}

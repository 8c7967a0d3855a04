import type { PageQuery } from "../../../http/envelope.js";
import { Conflict, NotFound } from "../../../http/errors.js";
import { guardUnique, inUse } from "../shared/catalogue-errors.js";
import type { CatalogueListQuery } from "../shared/catalogue-schema.js";
import type { CodelistRepository } from "./codelist.repository.js";
import type { CodelistInput, CodelistOptionInput, CodelistOptionView, CodelistView } from "./codelist.schema.js";

/** Code lists (稿件级别 …) and their options: the choices of select and multi-select story properties. */
export class CodelistService {
  constructor(
    private readonly codelists: CodelistRepository,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async list(query: CatalogueListQuery): Promise<{ content: CodelistView[]; total: number }> {
    const { rows, total } = await this.codelists.list(query);
    return { content: rows, total };
  }

  async get(id: string): Promise<CodelistView> {
    const list = await this.codelists.findById(id);
    if (!list) throw this.#notFound(id);
    return list;
  }

  async create(input: CodelistInput): Promise<CodelistView> {
    await this.#refuseClash(input);
    const id = await guardUnique(
      () => this.codelists.insert(input, this.#now()),
      () => this.#clash(input, "name"),
    );
    return this.get(id);
  }

  async update(id: string, input: CodelistInput): Promise<CodelistView> {
    await this.get(id);
    await this.#refuseClash(input, id);
    await guardUnique(
      () => this.codelists.update(id, input, this.#now()),
      () => this.#clash(input, "name"),
    );
    return this.get(id);
  }

  async delete(id: string): Promise<void> {
    const list = await this.get(id);
    const count = await this.codelists.propertyCount(id);
    if (count > 0) throw inUse("code list", list.name, count, "story properties");
    await this.codelists.delete(id);
  }

  /** The options of a list named by id or code, in order (/codelists/codelist/option). */
  async optionsOf(idOrCode: string): Promise<CodelistOptionView[]> {
    const list = await this.codelists.findByIdOrCode(idOrCode);
    if (!list) throw new NotFound(`no code list has the id or code ${idOrCode}`);
    return (await this.codelists.options(list.id)).rows;
  }

  async listOptions(id: string, query: PageQuery): Promise<{ content: CodelistOptionView[]; total: number }> {
    await this.get(id);
    const { rows, total } = await this.codelists.options(id, query);
    return { content: rows, total };
  }

  async createOption(id: string, input: CodelistOptionInput): Promise<CodelistOptionView> {
    await this.get(id);
    await this.#refuseValueClash(id, input);
    const optionId = await guardUnique(
      () => this.codelists.insertOption(id, input, this.#now()),
      () => this.#valueClash(input),
    );
    return (await this.codelists.findOption(id, optionId))!;
  }

  async updateOption(id: string, optionId: string, input: CodelistOptionInput): Promise<CodelistOptionView> {
    if (!(await this.codelists.findOption(id, optionId))) throw this.#optionNotFound(optionId);
    await this.#refuseValueClash(id, input, optionId);
    await guardUnique(
      () => this.codelists.updateOption(optionId, input, this.#now()),
      () => this.#valueClash(input),
    );
    return (await this.codelists.findOption(id, optionId))!;
  }

  /** Refused while a story property has the option as its default: the form would offer a value the list lacks. */
  async deleteOption(id: string, optionId: string): Promise<void> {
    const option = await this.codelists.findOption(id, optionId);
    if (!option) throw this.#optionNotFound(optionId);
    const defaults = (await this.codelists.propertyDefaults(id)).filter((property) =>
      property.default_value.split(",").some((value) => value.trim() === option.value),
    );
    if (defaults.length > 0) {
      const count = defaults.length;
      throw new Conflict(
        `the option "${option.value}" is the default value of ${count} story propert${count === 1 ? "y" : "ies"} and cannot be deleted`,
        "in_use",
      ).withMessageCode("catalogue.optionIsDefault", { value: option.value, count });
    }
    await this.codelists.deleteOption(optionId);
  }

  async #refuseClash(input: CodelistInput, exceptId?: string): Promise<void> {
    const clash = await this.codelists.findClash(input, exceptId);
    if (clash) throw this.#clash(input, clash);
  }

  #clash(input: CodelistInput, what: "name" | "code"): Conflict {
    return what === "code"
      ? new Conflict(`a code list with the code "${input.code}" already exists`, "duplicate_code").withMessageCode(
          "catalogue.duplicateCode",
          { code: input.code },
        )
      : new Conflict(`a code list named "${input.name}" already exists`, "duplicate_name").withMessageCode(
          "catalogue.duplicateName",
          { name: input.name },
        );
  }

  async #refuseValueClash(id: string, input: CodelistOptionInput, exceptId?: string): Promise<void> {
    if (await this.codelists.findOptionByValue(id, input.value, exceptId)) throw this.#valueClash(input);
  }

  #valueClash(input: CodelistOptionInput): Conflict {
    return new Conflict(
      `the code list already has an option with the value "${input.value}"`,
      "duplicate_value",
    ).withMessageCode("catalogue.duplicateValue", { value: input.value });
  }

  #now(): string {
    return this.clock().toISOString();
  }

  #notFound(id: string): NotFound {
    return new NotFound(`no code list has the id ${id}`);
  }

  #optionNotFound(id: string): NotFound {
    return new NotFound(`no option of this code list has the id ${id}`);
  }
}

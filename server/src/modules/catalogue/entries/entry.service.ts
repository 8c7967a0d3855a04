import { Conflict, NotFound } from "../../../http/errors.js";
import { guardUnique, inUse } from "../shared/catalogue-errors.js";
import type { CatalogueListQuery } from "../shared/catalogue-schema.js";
import type { CatalogueUsage } from "../shared/catalogue-usage.js";
import type { EntryRepository } from "./entry.repository.js";
import type { EntryDefinition } from "./entry-definition.js";

/** The rules every simple catalogue entry follows: unique names, and no deleting what stories use. */
export class EntryService<View extends { id: string; name: string }, Input extends { name: string }> {
  constructor(
    readonly definition: EntryDefinition<View, Input>,
    protected readonly repository: EntryRepository,
    private readonly usage: CatalogueUsage,
    protected readonly clock: () => Date = () => new Date(),
  ) {}

  protected view = (row: Parameters<EntryDefinition<View, Input>["toView"]>[0]): View => this.definition.toView(row);

  async list(query: CatalogueListQuery): Promise<{ content: View[]; total: number }> {
    const { rows, total } = await this.repository.list(query);
    return { content: rows.map(this.view), total };
  }

  async all(keyword: string | undefined, limit: number): Promise<View[]> {
    return (await this.repository.all(keyword, limit)).map(this.view);
  }

  async get(id: string): Promise<View> {
    const row = await this.repository.findById(id);
    if (!row) throw this.#notFound(id);
    return this.view(row);
  }

  async create(input: Input): Promise<View> {
    const values = { name: input.name, ...this.definition.toColumns(input) };
    await this.#refuseDuplicate(input, values);
    const row = await guardUnique(
      () => this.repository.insert(values, this.clock().toISOString()),
      () => this.#duplicate(input),
    );
    return this.view(row);
  }

  async update(id: string, input: Input): Promise<View> {
    const values = { name: input.name, ...this.definition.toColumns(input) };
    await this.#refuseDuplicate(input, values, id);
    const row = await guardUnique(
      () => this.repository.update(id, values, this.clock().toISOString()),
      () => this.#duplicate(input),
    );
    if (!row) throw this.#notFound(id);
    return this.view(row);
  }

  async delete(id: string): Promise<void> {
    const row = await this.repository.findById(id);
    if (!row) throw this.#notFound(id);
    const count = await this.usage.count(this.definition.usageKind, { id: row.id, name: row.name });
    if (count > 0) throw inUse(this.definition.noun, row.name, count);
    await this.repository.delete(id);
  }

  async #refuseDuplicate(input: Input, values: Record<string, unknown>, exceptId?: string): Promise<void> {
    if (await this.repository.findDuplicate(values, exceptId)) throw this.#duplicate(input);
  }

  #duplicate(input: Input): Conflict {
    return new Conflict(this.definition.duplicateMessage(input), "duplicate_name").withMessageCode(
      "catalogue.duplicateName",
      { name: String((input as { name?: unknown }).name ?? "") },
    );
  }

  #notFound(id: string): NotFound {
    return new NotFound(`no ${this.definition.noun} has the id ${id}`);
  }
}

import { Conflict, Invalid, NotFound } from "../../../http/errors.js";
import { guardUnique, inUse } from "../shared/catalogue-errors.js";
import type { CatalogueListQuery } from "../shared/catalogue-schema.js";
import type { CatalogueUsage, MergedBy } from "../shared/catalogue-usage.js";
import type { EntryRepository } from "./entry.repository.js";
import type { EntryDefinition, EntryRow } from "./entry-definition.js";

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

  /**
   * Deletes the entry after pointing every story that uses it at `intoId`, an
   * entry of the same kind, in one transaction (the "or merges into
   * another entry, by choice"). Answers how many stories changed.
   */
  async merge(id: string, intoId: string, by: MergedBy): Promise<{ mergedInto: string; stories: number }> {
    const row = await this.repository.findById(id);
    if (!row) throw this.#notFound(id);
    const into = await mergeTarget(this.definition.noun, id, intoId, (target) => this.repository.findById(target));
    const repoint = this.usage.repoint?.bind(this.usage);
    if (!repoint) throw new Invalid(`mergeInto: ${this.definition.noun}s cannot be merged here`, "invalid_merge");
    const stories = await this.repository.transaction(async (repository, executor) => {
      const changed = await repoint(this.definition.usageKind, row, into, executor, by);
      await this.mergeExtras(repository, row, into);
      await repository.delete(id);
      return changed;
    });
    return { mergedInto: into.id, stories };
  }

  /** What else a merge carries over to the target (keywords: their use counts). */
  protected async mergeExtras(_repository: EntryRepository, _from: EntryRow, _into: EntryRow): Promise<void> {}

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

/** The entry a merge goes into: another one of the same kind (400 naming `mergeInto` otherwise). */
export async function mergeTarget<T>(
  noun: string,
  id: string,
  intoId: string,
  find: (id: string) => Promise<T | undefined>,
): Promise<T> {
  if (intoId.toLowerCase() === id.toLowerCase()) {
    throw new Invalid(`mergeInto: a ${noun} cannot be merged into itself`, "invalid_merge");
  }
  const into = await find(intoId);
  if (!into) throw new Invalid(`mergeInto: no ${noun} has the id ${intoId}`, "invalid_merge");
  return into;
}

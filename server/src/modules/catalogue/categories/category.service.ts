import { Conflict, Invalid, NotFound } from "../../../http/errors.js";
import { mergeTarget } from "../entries/entry.service.js";
import { inUse } from "../shared/catalogue-errors.js";
import type { CatalogueListQuery } from "../shared/catalogue-schema.js";
import type { CatalogueUsage, MergedBy } from "../shared/catalogue-usage.js";
import type { CategoryRecord, CategoryRepository } from "./category.repository.js";
import type { CategoryInput, CategoryView } from "./category.schema.js";

function toView(record: CategoryRecord): CategoryView {
  const { createdAt, updatedAt, ...rest } = record;
  return { ...rest, createTime: createdAt, updateTime: updatedAt };
}

/** Categories form a tree: names are unique among siblings, a parent cannot be its own descendant. */
export class CategoryService {
  constructor(
    private readonly categories: CategoryRepository,
    private readonly usage: CatalogueUsage,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async list(query: CatalogueListQuery): Promise<{ content: CategoryView[]; total: number }> {
    const { rows, total } = await this.categories.list(query);
    return { content: rows.map(toView), total };
  }

  async all(): Promise<CategoryView[]> {
    return (await this.categories.all()).map(toView);
  }

  async create(input: CategoryInput): Promise<CategoryView> {
    await this.#check(input);
    const id = await this.categories.insert(input, this.clock().toISOString());
    return toView((await this.categories.findById(id))!);
  }

  async update(id: string, input: CategoryInput): Promise<CategoryView> {
    if (!(await this.categories.findById(id))) throw this.#notFound(id);
    await this.#check(input, id);
    await this.categories.update(id, input, this.clock().toISOString());
    return toView((await this.categories.findById(id))!);
  }

  async delete(id: string): Promise<void> {
    const category = await this.categories.findById(id);
    if (!category) throw this.#notFound(id);
    if (category.childCount > 0) throw hasChildren(category);
    const count = await this.usage.count("category", { id: category.id, name: category.name });
    if (count > 0) throw inUse("category", category.name, count);
    await this.categories.delete(id);
  }

  /**
   * Deletes a category without subcategories after pointing every story that
   * uses it at `intoId`, in one transaction. Answers how many stories changed.
   */
  async merge(id: string, intoId: string, by: MergedBy): Promise<{ mergedInto: string; stories: number }> {
    const category = await this.categories.findById(id);
    if (!category) throw this.#notFound(id);
    if (category.childCount > 0) throw hasChildren(category);
    const into = await mergeTarget("category", id, intoId, (target) => this.categories.findById(target));
    const repoint = this.usage.repoint?.bind(this.usage);
    if (!repoint) throw new Invalid("mergeInto: categories cannot be merged here", "invalid_merge");
    const stories = await this.categories.transaction(async (repository, executor) => {
      const changed = await repoint("category", category, into, executor, by);
      await repository.delete(id);
      return changed;
    });
    return { mergedInto: into.id, stories };
  }

  async #check(input: CategoryInput, id?: string): Promise<void> {
    if (input.parentId) {
      if (!(await this.categories.findById(input.parentId))) {
        throw new Invalid(`parentId: no category has the id ${input.parentId}`, "invalid_parent");
      }
      if (id && (await this.categories.ancestry(input.parentId)).includes(id)) {
        throw new Invalid("parentId: a category cannot be moved under itself or its subcategories", "invalid_parent");
      }
    }
    if (await this.categories.findSibling(input.parentId, input.name, id)) {
      throw new Conflict(
        input.parentId
          ? `a category named "${input.name}" already exists under the same parent`
          : `a top-level category named "${input.name}" already exists`,
        "duplicate_name",
      ).withMessageCode("catalogue.duplicateName", { name: input.name });
    }
  }

  #notFound(id: string): NotFound {
    return new NotFound(`no category has the id ${id}`);
  }
}

/** A category with subcategories can be neither deleted nor merged (409, with the message the screen shows). */
function hasChildren(category: { name: string; childCount: number }): Conflict {
  return new Conflict(
    `the category "${category.name}" has ${category.childCount} subcategor${category.childCount === 1 ? "y" : "ies"}; delete or move them first`,
    "has_children",
  ).withMessageCode("catalogue.hasChildren", { name: category.name, count: category.childCount });
}

import type { Db } from "../../db/database.js";
import { CategoryRepository } from "./categories/category.repository.js";
import { CategoryService } from "./categories/category.service.js";
import { CodelistRepository } from "./codelists/codelist.repository.js";
import { CodelistService } from "./codelists/codelist.service.js";
import { type AuthorInput, type AuthorView, authorDefinition } from "./entries/authors.js";
import { EntryRepository } from "./entries/entry.repository.js";
import { EntryService } from "./entries/entry.service.js";
import type { EntryDefinition } from "./entries/entry-definition.js";
import { type SourceInput, type SourceView, sourceDefinition } from "./entries/sources.js";
import { type TagInput, type TagView, tagDefinition } from "./entries/tags.js";
import { type ThemeInput, type ThemeView, themeDefinition } from "./entries/themes.js";
import { KeywordRepository } from "./keywords/keyword.repository.js";
import { keywordDefinition } from "./keywords/keyword.schema.js";
import { KeywordService } from "./keywords/keyword.service.js";
import { PropertyRepository } from "./properties/property.repository.js";
import { PropertyService } from "./properties/property.service.js";
import type { CatalogueUsage } from "./shared/catalogue-usage.js";

export interface Catalogue {
  tags: EntryService<TagView, TagInput>;
  themes: EntryService<ThemeView, ThemeInput>;
  sources: EntryService<SourceView, SourceInput>;
  authors: EntryService<AuthorView, AuthorInput>;
  keywords: KeywordService;
  categories: CategoryService;
  codelists: CodelistService;
  properties: PropertyService;
}

/**
 * Builds the catalogue's services (called once by app.ts). `usage` counts the
 * stories that use an entry, so deleting it can be refused; the stories
 * module provides it.
 */
export function buildCatalogue(db: Db, usage: CatalogueUsage): Catalogue {
  const entries = <V extends { id: string; name: string }, I extends { name: string }>(
    definition: EntryDefinition<V, I>,
  ) => new EntryService(definition, new EntryRepository(db, definition), usage);
  const codelists = new CodelistRepository(db);
  return {
    tags: entries(tagDefinition),
    themes: entries(themeDefinition),
    sources: entries(sourceDefinition),
    authors: entries(authorDefinition),
    keywords: new KeywordService(new EntryRepository(db, keywordDefinition), new KeywordRepository(db), usage),
    categories: new CategoryService(new CategoryRepository(db), usage),
    codelists: new CodelistService(codelists),
    properties: new PropertyService(new PropertyRepository(db), codelists),
  };
}

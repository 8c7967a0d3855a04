/** The catalogue: its types, calls (the back area's screens, the upload forms' pickers), query keys and domain hooks. */
import { useQuery } from "@tanstack/react-query";
import type { JsonBody } from "./bodies";
import { api, call } from "./client";
import type { CallOptions } from "./http";
import type { ListQuery, Page } from "./paging";
import { CONFLICT, restCalls, specCalls } from "./resource";
import type { components } from "./schema";

type Schemas = components["schemas"];

export type Tag = Schemas["CatalogueTag"];
export type Theme = Schemas["CatalogueTheme"];
export type Source = Schemas["CatalogueSource"];
export type SourceOption = Schemas["CatalogueSourceOption"];
export type Author = Schemas["CatalogueAuthor"];
export type Keyword = Schemas["CatalogueKeyword"];
export type KeywordHistoryEntry = Schemas["KeywordHistoryEntry"];
export type Category = Schemas["CatalogueCategory"];
export type Codelist = Schemas["Codelist"];
export type CodelistOption = Schemas["CodelistOption"];
export type StoryProperty = Schemas["StoryProperty"];
/** A property as a form gets it (/properties/list): with whether the caller's role may edit it. */
export type FormProperty = Schemas["StoryFormProperty"];
export type StoryType = StoryProperty["storyType"];
export type PropertyKind = StoryProperty["kind"];

export type TagInput = JsonBody<"/dams/api/v1/tag", "post">;
export type ThemeInput = JsonBody<"/dams/api/v1/theme", "post">;
export type SourceInput = JsonBody<"/dams/api/v1/source", "post">;
export type AuthorInput = JsonBody<"/dams/api/v1/nrauthor/create", "post">;
export type KeywordInput = JsonBody<"/dams/api/v1/keyword", "post">;
export type CategoryInput = JsonBody<"/dams/api/v1/categories", "post">;
export type CodelistInput = JsonBody<"/dams/api/v1/codelists", "post">;
export type CodelistOptionInput = JsonBody<"/dams/api/v1/codelists/{id}/options", "post">;
export type StoryPropertyInput = JsonBody<"/dams/api/v1/properties", "post">;

/**
 * The query keys of the catalogue. The back area's tables page through their
 * lists themselves (crud-table); these are the lists pickers and forms use.
 */
export const catalogueKeys = {
  all: ["catalogue"] as const,
  /** The custom properties of an upload form (and of the viewer's metadata) for a type and library. */
  formProperties: (storyType: string, libraryId: string | undefined) =>
    [...catalogueKeys.all, "properties", "form", storyType, libraryId ?? null] as const,
  keywordHistory: () => [...catalogueKeys.all, "keywords", "history"] as const,
  lockedProperties: () => [...catalogueKeys.all, "properties", "locked"] as const,
  mostUsedKeywords: (search: string) => [...catalogueKeys.all, "keywords", "most-used", search] as const,
  /** The names a picker offers for a search (authors, tags, themes, sources, categories). */
  names: (kind: string, search: string) => [...catalogueKeys.all, "names", kind, search] as const,
  allCategories: () => [...catalogueKeys.all, "categories", "all"] as const,
  allCodelists: () => [...catalogueKeys.all, "codelists", "all"] as const,
  codelistOptions: (idOrCode: string) => [...catalogueKeys.all, "codelists", idOrCode, "options"] as const,
};

/** The catalogue lists a picker offers names from. */
export type CatalogueNameKind = "authors" | "tags" | "themes" | "sources" | "categories";

/** The names of one catalogue list matching a search, at most `size` (categories: all, filtered here). */
export async function catalogueNames(kind: CatalogueNameKind, search: string, size: number): Promise<string[]> {
  const list = { keyword: search || undefined, page: 0, size };
  switch (kind) {
    case "authors":
      return (await authorCalls.list(list)).content.map((author) => author.name);
    case "tags":
      return (await tagCalls.list(list)).content.map((tag) => tag.name);
    case "themes":
      return (await themeCalls.list(list)).content.map((theme) => theme.name);
    case "sources":
      return (await sourceOptions(search || undefined)).map((option) => option.label);
    case "categories":
      return (await allCategories())
        .map((category) => category.name)
        .filter((name) => !search || name.toLowerCase().includes(search.toLowerCase()));
  }
}

const byId = (id: string) => ({ params: { path: { id } } });

// Tags, themes, sources, keywords, authors: the spec's paths; PUT carries the id in the body.
export const tagCalls = specCalls({
  list: "/dams/api/v1/tag",
  create: "/dams/api/v1/tag",
  update: "/dams/api/v1/tag",
  remove: "/dams/api/v1/tag/{id}",
});
export const themeCalls = specCalls({
  list: "/dams/api/v1/theme",
  create: "/dams/api/v1/theme",
  update: "/dams/api/v1/theme",
  remove: "/dams/api/v1/theme/{id}",
});
export const sourceCalls = specCalls({
  list: "/dams/api/v1/source",
  create: "/dams/api/v1/source",
  update: "/dams/api/v1/source",
  remove: "/dams/api/v1/source/{id}",
});
export const sourceOptions = (keyword?: string): Promise<SourceOption[]> =>
  call(api.GET("/dams/api/v1/source/option", { params: { query: { keyword } } }));

export const keywordCalls = specCalls({
  list: "/dams/api/v1/keyword",
  create: "/dams/api/v1/keyword",
  update: "/dams/api/v1/keyword",
  remove: "/dams/api/v1/keyword/{id}",
});
export const mostUsedKeywords = (keyword?: string, size = 20): Promise<Keyword[]> =>
  call(api.GET("/dams/api/v1/keyword/listByOrder", { params: { query: { keyword, size } } }));
export const keywordHistory = (query: ListQuery): Promise<Page<KeywordHistoryEntry>> =>
  call(api.GET("/dams/api/v1/keywordhistory", { params: { query } }));
export const recordKeywordHistory = (keywords: string[], options: CallOptions = {}): Promise<null> =>
  call(api.POST("/dams/api/v1/keywordhistory", { body: { keywords } }), options);

export const authorCalls = specCalls({
  list: "/dams/api/v1/nrauthor/select",
  create: "/dams/api/v1/nrauthor/create",
  update: "/dams/api/v1/nrauthor/update",
  remove: "/dams/api/v1/nrauthor/delete/{id}",
});

// Categories, code lists, story properties: REST paths of our design.
export const categoryCalls = restCalls("/dams/api/v1/categories", "/dams/api/v1/categories/{id}");
export const allCategories = (): Promise<Category[]> => call(api.GET("/dams/api/v1/categories/all"));

export const codelistCalls = restCalls("/dams/api/v1/codelists", "/dams/api/v1/codelists/{id}");
/** Every code list, for pickers (a newsroom has a few dozen at most). */
export const allCodelists = async (): Promise<Codelist[]> =>
  (await codelistCalls.list({ page: 0, size: 1000 })).content;
export const codelistOptions = (idOrCode: string): Promise<CodelistOption[]> =>
  call(api.GET("/dams/api/v1/codelists/codelist/option", { params: { query: { id: idOrCode } } }));
export const listCodelistOptions = (id: string, query: ListQuery): Promise<Page<CodelistOption>> =>
  call(api.GET("/dams/api/v1/codelists/{id}/options", { params: { path: { id }, query } }));
export const createCodelistOption = (id: string, body: CodelistOptionInput): Promise<CodelistOption> =>
  call(api.POST("/dams/api/v1/codelists/{id}/options", { ...byId(id), body }), CONFLICT);
export const updateCodelistOption = (
  id: string,
  optionId: string,
  body: CodelistOptionInput,
): Promise<CodelistOption> =>
  call(
    api.PUT("/dams/api/v1/codelists/{id}/options/{optionId}", { params: { path: { id, optionId } }, body }),
    CONFLICT,
  );
export const deleteCodelistOption = (id: string, optionId: string): Promise<null> =>
  call(api.DELETE("/dams/api/v1/codelists/{id}/options/{optionId}", { params: { path: { id, optionId } } }), CONFLICT);

export interface PropertyListQuery extends ListQuery {
  storytype?: StoryType;
  libraryId?: string;
}
export const listProperties = (query: PropertyListQuery): Promise<Page<StoryProperty>> =>
  call(api.GET("/dams/api/v1/properties", { params: { query } }));
/** The fields of an upload form: a library's own properties and every library's, quick ones first. */
export const formProperties = (query: {
  storytype?: StoryType;
  libraryId?: string;
  isquick?: "true" | "false";
}): Promise<FormProperty[]> => call(api.GET("/dams/api/v1/properties/list", { params: { query } }));
export const {
  create: createProperty,
  update: updateProperty,
  remove: deleteProperty,
} = restCalls("/dams/api/v1/properties", "/dams/api/v1/properties/{id}");

/** What a delete that merges answers: the target and how many stories now use it. */
export interface MergeResult {
  mergedInto: string;
  stories: number;
}
const merging = (id: string, mergeInto: string) => ({ params: { path: { id }, query: { mergeInto } } });
const merged = (pending: Promise<unknown>): Promise<MergeResult> => pending as Promise<MergeResult>;

// Deleting an entry stories use, merging it into another of the same kind (`?mergeInto=`).
export const mergeTag = (id: string, into: string) =>
  merged(call(api.DELETE("/dams/api/v1/tag/{id}", merging(id, into)), CONFLICT));
export const mergeTheme = (id: string, into: string) =>
  merged(call(api.DELETE("/dams/api/v1/theme/{id}", merging(id, into)), CONFLICT));
export const mergeSource = (id: string, into: string) =>
  merged(call(api.DELETE("/dams/api/v1/source/{id}", merging(id, into)), CONFLICT));
export const mergeKeyword = (id: string, into: string) =>
  merged(call(api.DELETE("/dams/api/v1/keyword/{id}", merging(id, into)), CONFLICT));
export const mergeAuthor = (id: string, into: string) =>
  merged(call(api.DELETE("/dams/api/v1/nrauthor/delete/{id}", merging(id, into)), CONFLICT));
export const mergeCategory = (id: string, into: string) =>
  merged(call(api.DELETE("/dams/api/v1/categories/{id}", merging(id, into)), CONFLICT));

// ---------------------------------------------------------------- hooks

/** The custom properties of a story type in a library (its own and every library's); asked only while `enabled`. */
export const useFormProperties = (
  storyType: StoryType,
  libraryId: string | undefined,
  options: { enabled?: boolean; staleTime?: number } = {},
) =>
  useQuery({
    queryKey: catalogueKeys.formProperties(storyType, libraryId),
    queryFn: () => formProperties({ storytype: storyType, libraryId }),
    enabled: options.enabled ?? true,
    ...(options.staleTime === undefined ? {} : { staleTime: options.staleTime }),
  });

/** The property keys (catalogue or IPTC texts) the user's role may not edit: forms disable them. */
export const useLockedProperties = () =>
  useQuery({
    queryKey: catalogueKeys.lockedProperties(),
    queryFn: async () => new Set((await call(api.GET("/dams/api/v1/properties/locked"))).locked) as ReadonlySet<string>,
    staleTime: 60_000,
  });

/** The user's recent keywords (the first 20). */
export const useKeywordHistory = () =>
  useQuery({
    queryKey: catalogueKeys.keywordHistory(),
    queryFn: () => keywordHistory({ page: 0, size: 20 }),
    staleTime: 60_000,
  });

/** The most used keywords matching a search. */
export const useMostUsedKeywords = (search: string, size: number) =>
  useQuery({
    queryKey: catalogueKeys.mostUsedKeywords(search),
    queryFn: () => mostUsedKeywords(search || undefined, size),
    staleTime: 30_000,
  });

/** A picker's names of one catalogue list for a search. */
export const useCatalogueNames = (kind: CatalogueNameKind, search: string, size: number) =>
  useQuery({
    queryKey: catalogueKeys.names(kind, search),
    queryFn: () => catalogueNames(kind, search, size),
    staleTime: 30_000,
  });

export const useAllCategories = () => useQuery({ queryKey: catalogueKeys.allCategories(), queryFn: allCategories });

export const useAllCodelists = () => useQuery({ queryKey: catalogueKeys.allCodelists(), queryFn: allCodelists });

/** A code list's options; asked only while `enabled`. */
export const useCodelistOptions = (idOrCode: string | undefined, enabled: boolean) =>
  useQuery({
    queryKey: catalogueKeys.codelistOptions(idOrCode ?? ""),
    queryFn: () => codelistOptions(idOrCode as string),
    enabled: enabled && Boolean(idOrCode),
  });

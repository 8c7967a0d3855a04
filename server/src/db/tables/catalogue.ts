/** The catalogue: themes, tags, keywords, sources, authors, categories, code lists and story properties (catalogue). */

/** Catalogue (migration 0008). Ids are uuids; names are unique regardless of case where noted. */
export interface ThemesTable {
  id: string;
  name: string;
  description: string | null;
  sort_order: number;
  created_at: string;
  updated_at: string;
}

export interface TagsTable {
  id: string;
  name: string;
  color: string | null;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface KeywordsTable {
  id: string;
  name: string;
  /** How many times the keyword was applied; orders /keyword/listByOrder. */
  use_count: number;
  created_at: string;
  updated_at: string;
}

/** A user's recently used keywords; one row per user and keyword (case-insensitive). */
export interface KeywordHistoryTable {
  id: string;
  user_id: string;
  keyword: string;
  used_at: string;
}

export interface SourcesTable {
  id: string;
  name: string;
  description: string | null;
  sort_order: number;
  created_at: string;
  updated_at: string;
}

/** nrauthor: a reporter, photographer or agency credited on stories. */
export interface AuthorsTable {
  id: string;
  name: string;
  pen_name: string | null;
  department: string | null;
  phone: string | null;
  email: string | null;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface CategoriesTable {
  id: string;
  name: string;
  parent_id: string | null;
  description: string | null;
  sort_order: number;
  created_at: string;
  updated_at: string;
}

export interface CodelistsTable {
  id: string;
  /** A stable key (`storyLevel`); /codelists/codelist/option?id= accepts it as well as the id. */
  code: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface CodelistOptionsTable {
  id: string;
  codelist_id: string;
  value: string;
  label: string;
  sort_order: number;
  created_at: string;
  updated_at: string;
}

/** A custom property of stories of one type, in one library (or every library when library_id is null). */
export interface StoryPropertiesTable {
  id: string;
  story_type: string;
  library_id: string | null;
  name: string;
  label: string;
  kind: string;
  required: boolean | number;
  default_value: string | null;
  codelist_id: string | null;
  sort_order: number;
  isquick: boolean | number;
  created_at: string;
  updated_at: string;
}

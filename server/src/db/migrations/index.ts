import type { Kysely, Migration, MigrationProvider } from "kysely";
import type { DialectAdapter } from "../dialect/index.js";
import { usersAndMenus } from "./0001-users-and-menus.js";
import { seedMenus } from "./0002-seed-menus.js";
import { oidc } from "./0003-oidc.js";
import { accessControl } from "./0004-access-control.js";
import { jobs } from "./0005-jobs.js";
import { blobs } from "./0006-blobs.js";
import { stories } from "./0007-stories.js";
import { catalogue } from "./0008-catalogue.js";
import { search } from "./0009-search.js";
import { urlFetches } from "./0010-url-fetches.js";
import { jobStories } from "./0011-job-stories.js";
import { urlFetchCancel } from "./0012-url-fetch-cancel.js";
import { searchColumns } from "./0013-search-columns.js";
import { searchFacetTerms } from "./0014-search-facet-terms.js";
import { searchSlices } from "./0015-search-slices.js";
import { storiesVisibleCount } from "./0016-stories-visible-count.js";

// Migrations are frozen history: they must not depend on today's table types.
// biome-ignore lint/suspicious/noExplicitAny: migrations address tables that later versions may reshape.
export type AnyKysely = Kysely<any>;

/** One ordered list for both dialects; names sort in the order they apply. */
export class DamsMigrationProvider implements MigrationProvider {
  constructor(private readonly adapter: DialectAdapter) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    return {
      "0001-users-and-menus": usersAndMenus(this.adapter),
      "0002-seed-menus": seedMenus,
      "0003-oidc": oidc(this.adapter),
      "0004-access-control": accessControl(this.adapter),
      "0005-jobs": jobs(this.adapter),
      "0006-blobs": blobs(this.adapter),
      "0007-stories": stories(this.adapter),
      "0008-catalogue": catalogue(this.adapter),
      "0009-search": search(this.adapter),
      "0010-url-fetches": urlFetches(this.adapter),
      "0011-job-stories": jobStories(this.adapter),
      "0012-url-fetch-cancel": urlFetchCancel(this.adapter),
      "0013-search-columns": searchColumns(this.adapter),
      "0014-search-facet-terms": searchFacetTerms(this.adapter),
      "0015-search-slices": searchSlices(this.adapter),
      "0016-stories-visible-count": storiesVisibleCount(this.adapter),
    };
  }
}

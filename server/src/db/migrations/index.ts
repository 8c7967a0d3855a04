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
import { uploadLocks } from "./0017-upload-locks.js";
import { sharedSecrets } from "./0018-shared-secrets.js";
import { videoEdit } from "./0019-video-edit.js";
import { storiesHashIndex } from "./0020-stories-hash-index.js";
import { auditLog } from "./0021-audit-log.js";
import { searchFormat } from "./0022-search-format.js";
import { ingestKeys } from "./0023-ingest-keys.js";
import { presets } from "./0024-presets.js";
import { disk } from "./0025-disk.js";
import { shareLinks } from "./0026-share-links.js";
import { jobWorkers } from "./0027-job-workers.js";
import { channels } from "./0028-channels.js";
import { registration } from "./0029-registration.js";
import { metadataTemplates } from "./0030-metadata-templates.js";
import { librarySettings } from "./0031-library-settings.js";
import { propertyAccess } from "./0032-property-access.js";
import { storyFilesCreated } from "./0033-story-files-created.js";
import { storageTargets } from "./0034-storage-targets.js";
import { usageIndexes } from "./0035-usage-indexes.js";
import { actionRules } from "./0036-action-rules.js";
import { channelPresets } from "./0037-channel-presets.js";
import { storyRevision } from "./0038-story-revision.js";
import { sharePresetDownloads } from "./0039-share-preset-downloads.js";
import { shareVisits } from "./0040-share-visits.js";
import { storyBatchEdits } from "./0041-story-batch-edits.js";
import { usageCounters } from "./0042-usage-counters.js";
import { shareUploads } from "./0043-share-uploads.js";
import { storageChecks } from "./0044-storage-checks.js";
import { maintenanceRuns } from "./0045-maintenance-runs.js";
import { storyTexts } from "./0046-story-texts.js";
import { libraryQuotas } from "./0047-library-quotas.js";
import { searchRestrictedProperties } from "./0048-search-restricted-properties.js";

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
      "0017-upload-locks": uploadLocks(this.adapter),
      "0018-shared-secrets": sharedSecrets(this.adapter),
      "0019-video-edit": videoEdit(this.adapter),
      "0020-stories-hash-index": storiesHashIndex(),
      "0021-audit-log": auditLog(this.adapter),
      "0022-search-format": searchFormat(this.adapter),
      "0023-ingest-keys": ingestKeys(this.adapter),
      "0024-presets": presets(this.adapter),
      "0025-disk": disk(this.adapter),
      "0026-share-links": shareLinks(this.adapter),
      "0027-job-workers": jobWorkers(this.adapter),
      "0028-channels": channels(this.adapter),
      "0029-registration": registration(this.adapter),
      "0030-metadata-templates": metadataTemplates(this.adapter),
      "0031-library-settings": librarySettings(this.adapter),
      "0032-property-access": propertyAccess(this.adapter),
      "0033-story-files-created": storyFilesCreated(),
      "0034-storage-targets": storageTargets(this.adapter),
      "0035-usage-indexes": usageIndexes(),
      "0036-action-rules": actionRules(this.adapter),
      "0037-channel-presets": channelPresets(this.adapter),
      "0038-story-revision": storyRevision(),
      "0039-share-preset-downloads": sharePresetDownloads(this.adapter),
      "0040-share-visits": shareVisits(this.adapter),
      "0041-story-batch-edits": storyBatchEdits(this.adapter),
      "0042-usage-counters": usageCounters(this.adapter),
      "0043-share-uploads": shareUploads(this.adapter),
      "0044-storage-checks": storageChecks(this.adapter),
      "0045-maintenance-runs": maintenanceRuns(this.adapter),
      "0046-story-texts": storyTexts(this.adapter),
      "0047-library-quotas": libraryQuotas(this.adapter),
      "0048-search-restricted-properties": searchRestrictedProperties(),
    };
  }
}

import type { Db } from "../../db/database.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import { MetadataTemplatesRepository } from "./metadata-templates.repository.js";
import { metadataTemplatesRoutes } from "./metadata-templates.routes.js";
import { MetadataTemplatesService } from "./metadata-templates.service.js";

/** Builds the metadata templates once (app.ts). */
export function buildMetadataTemplates(db: Db, deps: { libraries: LibrariesService; audit: AuditLog }) {
  const service = new MetadataTemplatesService({
    templates: new MetadataTemplatesRepository(db),
    libraries: deps.libraries,
    audit: deps.audit,
  });
  return { service, routes: metadataTemplatesRoutes(service) };
}

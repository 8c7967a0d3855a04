import type { Db } from "../../db/database.js";
import { type IngestDependencies, IngestService } from "./ingest.service.js";
import { IngestKeysRepository } from "./ingest-keys.repository.js";

/** Builds the ingest command once (app.ts); tus uploads, URL fetches and the image editor's save call it. */
export function buildIngest(deps: Omit<IngestDependencies, "keys"> & { db: Db }): IngestService {
  const { db, ...rest } = deps;
  return new IngestService({ ...rest, keys: new IngestKeysRepository(db) });
}

import type { Db } from "../../db/database.js";
import { AuditRepository } from "./audit.repository.js";
import { AuditService } from "./audit.service.js";
import { AuditLog } from "./audit-log.js";

export interface AuditModule {
  /** The one writer every state-changing service calls in its transaction. */
  log: AuditLog;
  repository: AuditRepository;
  /** Reading the log (its page, its export) and its retention. */
  service: AuditService;
}

/** Builds the operation log once (called by app.ts, before every service that changes state). */
export function buildAudit(db: Db, clock?: () => Date): AuditModule {
  const repository = new AuditRepository(db.kysely, db.adapter);
  const log = new AuditLog(repository, clock);
  return { log, repository, service: new AuditService(repository, log, clock) };
}

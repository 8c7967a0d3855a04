import type { Db } from "../../db/database.js";
import type { IngestService } from "../ingest/ingest.service.js";
import { hashPassword, verifyPassword } from "../users/password.js";
import { ShareDrops } from "./share-drops.js";
import { ShareSigner } from "./share-tokens.js";
import { ShareVisits, type ShareVisitsDependencies } from "./share-visits.service.js";
import { SharesRepository } from "./shares.repository.js";
import { type SharesDependencies, SharesService } from "./shares.service.js";

export interface SharesModule {
  service: SharesService;
  visits: ShareVisits;
  /** The upload drop: its options, and the uploads module's destination for visitors' files. */
  drops: ShareDrops;
}

/** Builds the shares module once (called by app.ts): the owners' service and the visitors' (the `share` access). */
export function buildShares(
  db: Db,
  deps: Omit<SharesDependencies, "shares" | "db" | "hashPassword" | "presets" | "drops"> &
    Omit<ShareVisitsDependencies, "db" | "shares" | "verifyPassword" | "sessions" | "files" | "drops"> & {
      /** The one ingest command: a dropped file becomes a draft through it. */
      ingest: Pick<IngestService, "ingestFile">;
      sharedKey: Buffer;
      /** The download presets: storyTypeOf, usable, ensureRendered. */
      presets: SharesDependencies["presets"] & ShareVisitsDependencies["presets"];
    },
): SharesModule {
  const shares = new SharesRepository(db.kysely, db.adapter);
  const clock = deps.clock ? () => deps.clock!().getTime() : undefined;
  const drops = new ShareDrops({ ...deps, db, shares });
  return {
    drops,
    service: new SharesService({ ...deps, db, shares, hashPassword, drops }),
    visits: new ShareVisits({
      ...deps,
      db,
      shares,
      drops,
      verifyPassword,
      sessions: new ShareSigner(deps.sharedKey, "session", clock),
      files: new ShareSigner(deps.sharedKey, "media", clock),
    }),
  };
}

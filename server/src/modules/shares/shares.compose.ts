import type { Db } from "../../db/database.js";
import { hashPassword, verifyPassword } from "../users/password.js";
import { ShareSigner } from "./share-tokens.js";
import { ShareVisits, type ShareVisitsDependencies } from "./share-visits.service.js";
import { SharesRepository } from "./shares.repository.js";
import { type SharesDependencies, SharesService } from "./shares.service.js";

export interface SharesModule {
  service: SharesService;
  visits: ShareVisits;
}

/** Builds the shares module once (called by app.ts): the owners' service and the visitors' (the `share` access). */
export function buildShares(
  db: Db,
  deps: Omit<SharesDependencies, "shares" | "db" | "hashPassword" | "presets"> &
    Omit<ShareVisitsDependencies, "db" | "shares" | "verifyPassword" | "sessions" | "files"> & {
      sharedKey: Buffer;
      /** The download presets: storyTypeOf, usable, ensureRendered. */
      presets: SharesDependencies["presets"] & ShareVisitsDependencies["presets"];
    },
): SharesModule {
  const shares = new SharesRepository(db.kysely, db.adapter);
  const clock = deps.clock ? () => deps.clock!().getTime() : undefined;
  return {
    service: new SharesService({ ...deps, db, shares, hashPassword }),
    visits: new ShareVisits({
      ...deps,
      db,
      shares,
      verifyPassword,
      sessions: new ShareSigner(deps.sharedKey, "session", clock),
      files: new ShareSigner(deps.sharedKey, "media", clock),
    }),
  };
}

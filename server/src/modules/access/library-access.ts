import type { SharedCache } from "../../db/shared-cache.js";
import { Forbidden, NotFound } from "../../http/errors.js";
import type { LibraryUser } from "../auth/permissions.js";
import { ALL_LIBRARIES, type LibraryLevel, levelAtLeast } from "../auth/permissions.js";
import { signedInTag } from "../auth/signed-in-cache.js";
import { ANY_GRANT } from "./access-caches.js";
import type { GrantsRepository, HeldGrant } from "./grants.repository.js";

export type { LibraryUser };

const cacheKey = (user: LibraryUser, libraryId: string) => `${user.id} ${user.roleId ?? ""} ${libraryId}`;

/**
 * Library access = the user's own grants ∪ their role's grants, `*` meaning
 * every library; manage ⊃ write ⊃ read. Administrators (users.admin) pass.
 */
export class LibraryAccess {
  constructor(
    private readonly grants: GrantsRepository,
    /** Levels kept a few seconds per user, role and library; dropped when a grant or the user changes. */
    private readonly cache?: SharedCache<LibraryLevel[]>,
    /** Every grant of a user and role, kept and dropped alike (AccessCaches.heldGrants). */
    private readonly held?: SharedCache<HeldGrant[]>,
  ) {}

  /** The highest level the user holds on the library, or null for none. */
  async levelOn(user: LibraryUser, libraryId: string): Promise<LibraryLevel | null> {
    if (user.admin) return "manage";
    const load = () => this.grants.levelsOn(libraryId, user.id, user.roleId);
    const levels = this.cache
      ? await this.cache.get(cacheKey(user, libraryId), load, [signedInTag.user(user.id), ANY_GRANT])
      : await load();
    let best: LibraryLevel | null = null;
    for (const level of levels) if (best === null || levelAtLeast(level, best)) best = level;
    return best;
  }

  /**
   * The highest level the user holds on each of `libraryIds` (null for none),
   * from one read of their grants rather than one per library.
   */
  async levelsOn(user: LibraryUser, libraryIds: readonly string[]): Promise<Map<string, LibraryLevel | null>> {
    const levels = new Map<string, LibraryLevel | null>();
    const grants = user.admin ? [] : await this.#heldGrants(user);
    for (const libraryId of libraryIds) {
      let best: LibraryLevel | null = user.admin ? "manage" : null;
      for (const grant of grants) {
        if (grant.libraryId !== libraryId && grant.libraryId !== ALL_LIBRARIES) continue;
        if (best === null || levelAtLeast(grant.level, best)) best = grant.level;
      }
      levels.set(libraryId, best);
    }
    return levels;
  }

  #heldGrants(user: LibraryUser): Promise<HeldGrant[]> {
    const load = () => this.grants.levelsOfHolder(user.id, user.roleId);
    if (!this.held) return load();
    return this.held.get(`${user.id} ${user.roleId ?? ""}`, load, [signedInTag.user(user.id), ANY_GRANT]);
  }

  /**
   * Whether the user is known, without waiting, to hold `level` on the
   * library: an administrator, or their levels on it kept. False when they
   * must be read (`require` decides).
   */
  knownToHold(user: LibraryUser, libraryId: string, level: LibraryLevel): boolean {
    if (user.admin) return true;
    const levels = this.cache?.peek(cacheKey(user, libraryId));
    return levels?.some((held) => levelAtLeast(held, level)) === true;
  }

  async check(user: LibraryUser, libraryId: string, level: LibraryLevel): Promise<boolean> {
    const held = await this.levelOn(user, libraryId);
    return held !== null && levelAtLeast(held, level);
  }

  /**
   * Throws NotFound when the user cannot even read the library (its existence
   * must not leak) and Forbidden when they read it but need more.
   */
  async require(user: LibraryUser, libraryId: string, level: LibraryLevel): Promise<void> {
    const held = await this.levelOn(user, libraryId);
    if (held === null) throw new NotFound();
    if (!levelAtLeast(held, level)) throw new Forbidden();
  }
}

import type { Notifications } from "../../db/notifications.js";
import { SharedCache } from "../../db/shared-cache.js";
import type { LibraryLevel } from "../auth/permissions.js";
import { buildSignedInCache, type SignedIn, signedInTag } from "../auth/signed-in-cache.js";
import type { HeldGrant } from "./grants.repository.js";

/** Tag of every cached library level: any grant written drops them all (grants change seldom). */
export const ANY_GRANT = "grants";

/**
 * What the API reads on every call about who the caller is and what they
 * may do, kept a few seconds per token (sign-ins), per user and library
 * (levels), per user and role (every grant they hold: the libraries a search
 * looks in) and per role (the properties it may not see), and dropped on
 * every node by the services that change it: an account (disabled, role,
 * admin flag), a role (permissions, deleted, its property rules), a library
 * grant. Without a lifetime (0) nothing is kept.
 */
export class AccessCaches {
  readonly signedIn: SharedCache<SignedIn> | undefined;
  readonly libraryLevels: SharedCache<LibraryLevel[]> | undefined;
  /** Per user and role, every grant they hold (LibraryAccess.levelsOn): dropped with the user or any grant. */
  readonly heldGrants: SharedCache<HeldGrant[]> | undefined;
  /** Per role (the key is its id), the story properties it may not see (PropertyAccessService.hiddenFor). */
  readonly hiddenProperties: SharedCache<ReadonlySet<string>> | undefined;

  constructor(notifications: Notifications, ttlMs: number) {
    this.signedIn = ttlMs > 0 ? buildSignedInCache(notifications, ttlMs) : undefined;
    this.libraryLevels =
      ttlMs > 0 ? new SharedCache(notifications, "library-levels", { ttlMs, maxEntries: 20_000 }) : undefined;
    this.heldGrants =
      ttlMs > 0 ? new SharedCache(notifications, "held-grants", { ttlMs, maxEntries: 20_000 }) : undefined;
    this.hiddenProperties =
      ttlMs > 0 ? new SharedCache(notifications, "hidden-properties", { ttlMs, maxEntries: 1_000 }) : undefined;
  }

  /** Drops cached sign-ins by tag (signedInTag), on every node. */
  async invalidate(tag: string): Promise<void> {
    await this.signedIn?.invalidate(tag);
  }

  async userChanged(userId: string): Promise<void> {
    await this.signedIn?.invalidate(signedInTag.user(userId));
    await this.libraryLevels?.invalidate(signedInTag.user(userId));
    await this.heldGrants?.invalidate(signedInTag.user(userId));
  }

  async roleChanged(roleId: string): Promise<void> {
    await this.signedIn?.invalidate(signedInTag.role(roleId));
    await this.hiddenProperties?.invalidate(roleId);
  }

  async grantsChanged(): Promise<void> {
    await this.libraryLevels?.invalidate(ANY_GRANT);
    await this.heldGrants?.invalidate(ANY_GRANT);
  }

  close(): void {
    this.signedIn?.close();
    this.libraryLevels?.close();
    this.heldGrants?.close();
    this.hiddenProperties?.close();
  }
}

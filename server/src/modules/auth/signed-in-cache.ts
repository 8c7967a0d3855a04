import type { Notifications } from "../../db/notifications.js";
import { SharedCache } from "../../db/shared-cache.js";
import type { AuthenticatedUser } from "./auth.types.js";
import type { Principal } from "./bearer.js";

/** Who called, as the API auth hook decides it: the verified token and the account with its role's permissions. */
export interface SignedIn {
  principal: Principal;
  user: AuthenticatedUser;
}

/**
 * The tags a cached sign-in is dropped by. Whoever changes what a sign-in
 * rests on invalidates the tag, on every node (SharedCache): the account
 * (disabled, admin flag, role), the role (its permissions), the provider's
 * grant (sign-out, replay) or the personal API token (revoked).
 */
export const signedInTag = {
  user: (userId: string) => `user:${userId}`,
  role: (roleId: string) => `role:${roleId}`,
  grant: (grantId: string) => `grant:${grantId}`,
  apiToken: (tokenId: string) => `api-token:${tokenId}`,
};

export function signedInTags({ principal, user }: SignedIn): string[] {
  const tags = [signedInTag.user(user.id)];
  if (user.roleId) tags.push(signedInTag.role(user.roleId));
  if (principal.grantId) tags.push(signedInTag.grant(principal.grantId));
  if (principal.tokenId) tags.push(signedInTag.apiToken(principal.tokenId));
  return tags;
}

/** Drops cached sign-ins by tag on every node; what the writers of accounts, roles, grants and tokens are given. */
export interface SignedInInvalidator {
  invalidate(tag: string): Promise<void>;
}

/**
 * Sign-ins per token (keyed by the Authorization header's hash), kept
 * `ttlMs` at most and dropped at once on every node by the tags above. With
 * `ttlMs` 0 nothing is kept (every request looks the caller up again).
 */
export function buildSignedInCache(notifications: Notifications, ttlMs: number): SharedCache<SignedIn> {
  return new SharedCache<SignedIn>(notifications, "signed-in", { ttlMs, maxEntries: 20_000 });
}

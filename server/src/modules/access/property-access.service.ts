import type { Kysely } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database } from "../../db/schema.js";
import type { SharedCache } from "../../db/shared-cache.js";
import { Forbidden, NotFound } from "../../http/errors.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import { PropertyAccessRepository, type PropertyRule } from "./property-access.repository.js";
import type { RolesRepository } from "./roles.repository.js";

/** Who a check is for: administrators (users.admin) see and edit every property. */
export interface PropertyUser {
  admin: boolean;
  roleId: string | null;
}

const NO_RULES: ReadonlySet<string> = new Set();

/**
 * Per role (keyed by its id), the properties it may not see: AccessCaches.hiddenProperties, dropped on
 * every node when the role's rules change (`replace`) or the role does (RolesService).
 */
export type HiddenPropertiesCache = Pick<SharedCache<ReadonlySet<string>>, "get" | "peek" | "invalidate">;

/**
 * The search index's side of field-level access: the text of the properties some role may not see is
 * indexed apart, and a search matches it only for those who may see it (the search module's SearchIndex).
 */
export interface PropertySearchIndex {
  restrictProperties(executor: Kysely<Database>, properties: readonly string[]): Promise<void>;
}

/**
 * Field-level access (/manage/userrole/property): per role, the story
 * properties (keys of a story's custom `properties`) it may not see or not
 * edit. Story responses lose the hidden keys (`stripHidden`, run on every
 * API answer); edits of a property the role may not edit are refused.
 */
export class PropertyAccessService {
  constructor(
    private readonly deps: {
      db: Db;
      rules: PropertyAccessRepository;
      roles: Pick<RolesRepository, "findById">;
      audit: AuditLog;
      /** Told of the properties some role may not see, in the rule change's transaction. */
      search: PropertySearchIndex;
      /** Per role, the properties it may not see, kept a few seconds; without it, read per call. */
      hidden?: HiddenPropertiesCache;
      clock?: () => Date;
    },
  ) {}

  async rulesOf(roleId: string): Promise<PropertyRule[]> {
    if (!(await this.deps.roles.findById(roleId))) throw new NotFound(`no role has the id ${roleId}`, "role_not_found");
    return this.deps.rules.rulesOf(roleId);
  }

  async replace(actor: Actor, roleId: string, rules: PropertyRule[]): Promise<PropertyRule[]> {
    const before = await this.rulesOf(roleId);
    const now = (this.deps.clock?.() ?? new Date()).toISOString();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const repository = this.deps.rules.with(trx);
      await repository.replace(roleId, rules, now);
      // A search for a hidden property's value must not find the story (its entry is rewritten now).
      await this.deps.search.restrictProperties(trx, await repository.hiddenAnywhere());
      await this.deps.audit.record(trx, actor, {
        action: "role.property-access",
        target: { type: "role", id: roleId },
        before: { rules: before },
        after: { rules: rules.filter((rule) => !(rule.visible && rule.editable)) },
      });
    });
    // Once committed, so no node keeps (or loads again) the rules of before.
    await this.deps.hidden?.invalidate(roleId);
    return this.deps.rules.rulesOf(roleId);
  }

  /** The properties the user may not see. */
  async hiddenFor(user: PropertyUser): Promise<ReadonlySet<string>> {
    if (user.admin || !user.roleId) return NO_RULES;
    const roleId = user.roleId;
    if (!this.deps.hidden) return this.#readHidden(roleId);
    return this.deps.hidden.get(roleId, () => this.#readHidden(roleId));
  }

  /**
   * The properties the user may not see when that is known without waiting
   * (an administrator, no role, or the role's set cached); undefined when it
   * must be read (`hiddenFor`). The answers' filter runs on every API call.
   */
  knownHiddenFor(user: PropertyUser): ReadonlySet<string> | undefined {
    if (user.admin || !user.roleId) return NO_RULES;
    return this.deps.hidden?.peek(user.roleId);
  }

  async #readHidden(roleId: string): Promise<ReadonlySet<string>> {
    const rules = await this.deps.rules.rulesOf(roleId);
    const hidden = rules.filter((rule) => !rule.visible).map((rule) => rule.property);
    return hidden.length === 0 ? NO_RULES : new Set(hidden);
  }

  /**
   * The properties hidden from at least one role. A share link's visitor has
   * no role and is trusted less than any: none of these is shown to them.
   */
  async hiddenFromAnyRole(): Promise<ReadonlySet<string>> {
    return new Set(await this.deps.rules.hiddenAnywhere());
  }

  /** The properties the user may not edit (hidden ones included). */
  async lockedFor(user: PropertyUser): Promise<ReadonlySet<string>> {
    if (user.admin || !user.roleId) return NO_RULES;
    const rules = await this.deps.rules.rulesOf(user.roleId);
    return new Set(rules.filter((rule) => !rule.editable).map((rule) => rule.property));
  }

  /** Refuses (403 `property_not_editable`, naming it) an edit of a property the user may not edit. */
  async checkEditable(user: PropertyUser, properties: readonly string[]): Promise<void> {
    if (properties.length === 0) return;
    const locked = await this.lockedFor(user);
    const refused = properties.find((property) => locked.has(property));
    if (refused !== undefined) {
      throw new Forbidden(`properties.${refused}: your role may not edit this property`, "property_not_editable");
    }
  }
}

/**
 * Removes the hidden keys from every story-shaped object in an answer: an
 * object with a `properties` record and a `libraryId` (stories in lists,
 * the viewer, versions, search results). And drops from any list the field
 * changes of a hidden property (`{ field: "properties.<key>", from, to }`:
 * the story history's edits, `GET /story-actions`). Changes the payload in place.
 */
export function stripHidden(payload: unknown, hidden: ReadonlySet<string>, depth = 0): void {
  if (hidden.size === 0 || depth > 8 || payload === null || typeof payload !== "object") return;
  if (Array.isArray(payload)) {
    for (let index = payload.length - 1; index >= 0; index--) {
      if (isHiddenChange(payload[index], hidden)) payload.splice(index, 1);
    }
    for (const item of payload) stripHidden(item, hidden, depth + 1);
    return;
  }
  const record = payload as Record<string, unknown>;
  const properties = record.properties;
  if ("libraryId" in record && properties && typeof properties === "object" && !Array.isArray(properties)) {
    for (const key of hidden) delete (properties as Record<string, unknown>)[key];
  }
  for (const value of Object.values(record)) {
    if (value !== null && typeof value === "object") stripHidden(value, hidden, depth + 1);
  }
}

const PROPERTY_FIELD = "properties.";

/** A field change (story-metadata.ts `fieldChanges`, kept in the story history) of a hidden property. */
function isHiddenChange(item: unknown, hidden: ReadonlySet<string>): boolean {
  if (item === null || typeof item !== "object" || !("from" in item) || !("to" in item)) return false;
  const field = (item as { field?: unknown }).field;
  return (
    typeof field === "string" && field.startsWith(PROPERTY_FIELD) && hidden.has(field.slice(PROPERTY_FIELD.length))
  );
}

/** Builds field-level access once (app.ts); `register` strips hidden properties from every API answer. */
export function buildPropertyAccess(
  db: Db,
  deps: {
    roles: Pick<RolesRepository, "findById">;
    audit: AuditLog;
    search: PropertySearchIndex;
    hidden?: HiddenPropertiesCache;
  },
): PropertyAccessService {
  return new PropertyAccessService({ db, rules: new PropertyAccessRepository(db), ...deps });
}

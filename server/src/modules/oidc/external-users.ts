import { createHash } from "node:crypto";
import type { JWTPayload } from "jose";
import { Unauthorized } from "../../http/errors.js";
import type { AuditLog } from "../audit/audit-log.js";
import { auditChanges } from "../audit/audit-log.js";
import type { UsersService } from "../users/users.service.js";

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{1,63}$/;

function claimString(payload: JWTPayload, name: string): string | undefined {
  const value = payload[name];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** `groups=dams-admins` matches a list containing it or an equal string; `admin=true` a true or "true". */
export function hasAdminClaim(payload: JWTPayload, rule: { name: string; value: string } | undefined): boolean {
  if (!rule) return false;
  const value = payload[rule.name];
  if (Array.isArray(value)) return value.some((item) => String(item) === rule.value);
  return value !== undefined && value !== null && String(value) === rule.value;
}

/**
 * Users of an external issuer: provisioned on first sign-in from the token's
 * claims (sub, preferred_username, name, picture), then kept in step with them.
 * A username already taken locally is never linked: the new user gets a suffix.
 */
export class ExternalUsers {
  constructor(
    private readonly service: UsersService,
    private readonly adminClaim: { name: string; value: string } | undefined,
    private readonly audit: AuditLog,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async resolve(payload: JWTPayload): Promise<string> {
    const subject = payload.sub;
    if (!subject) throw new Unauthorized("the access token has no subject", "token_invalid");
    const profile = {
      name: claimString(payload, "name") ?? claimString(payload, "preferred_username") ?? subject,
      avatar_url: claimString(payload, "picture") ?? null,
      admin: hasAdminClaim(payload, this.adminClaim),
    };
    const existing = await this.service.byExternalSubject(subject);
    if (existing) {
      if (
        existing.name !== profile.name ||
        existing.avatar_url !== profile.avatar_url ||
        existing.admin !== profile.admin
      ) {
        await this.service.updateExternalProfile(existing.id, profile, this.clock().toISOString());
        await this.audit.recordEvent(
          { id: existing.id, username: existing.username },
          {
            action: "user.sync",
            target: { type: "user", id: existing.id, label: existing.username },
            ...auditChanges(
              { name: existing.name, avatarUrl: existing.avatar_url, admin: existing.admin },
              { name: profile.name, avatarUrl: profile.avatar_url, admin: profile.admin },
            ),
            details: { issuer: payload.iss ?? null, subject },
          },
        );
      }
      return existing.id;
    }
    const username = await this.#freeUsername(subject, claimString(payload, "preferred_username"));
    try {
      const created = await this.service.createExternalUser({
        subject,
        username,
        name: profile.name,
        avatarUrl: profile.avatar_url,
        admin: profile.admin,
      });
      await this.audit.recordEvent(
        { id: created.id, username },
        {
          action: "user.provision",
          target: { type: "user", id: created.id, label: username },
          after: { username, name: profile.name, admin: profile.admin },
          details: { issuer: payload.iss ?? null, subject },
        },
      );
      return created.id;
    } catch (error) {
      // Two first requests of one new user raced; the other one created the row.
      const raced = await this.service.byExternalSubject(subject);
      if (raced) return raced.id;
      throw error;
    }
  }

  async #freeUsername(subject: string, preferred: string | undefined): Promise<string> {
    const tag = createHash("sha256").update(subject).digest("hex").slice(0, 8);
    const base = preferred && USERNAME.test(preferred) ? preferred : `user-${tag}`;
    if (!(await this.service.usernameTaken(base))) return base;
    return `${base.slice(0, 55)}-${tag}`;
  }
}

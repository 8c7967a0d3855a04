import { randomBytes, randomUUID } from "node:crypto";
import type { PageQuery } from "../../http/envelope.js";
import { Conflict, Forbidden, Invalid, NotFound } from "../../http/errors.js";
import { BUILT_IN_ROLES, DEFAULT_ROLE_ID } from "../auth/permissions.js";
import { hashPassword, verifyPassword } from "./password.js";
import type { RegistrationSettings } from "./registration.js";
import type { UserAccount, UserAccountChanges, UserRecord, UsersRepository } from "./users.repository.js";

export interface NewUser {
  username: string;
  name?: string;
  password: string;
  admin?: boolean;
  /** roles.id; administrators default to the administrator role, everyone else to contributor. */
  roleId?: string;
  /** false: the account exists disabled (a registration awaiting approval). Default true. */
  enabled?: boolean;
}

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{1,63}$/;
export const MIN_PASSWORD_LENGTH = 8;

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new Invalid(`password must be at least ${MIN_PASSWORD_LENGTH} characters`, "weak_password");
  }
}

let dummyHash: Promise<string> | undefined;
/** A hash of a random password, made once, that unknown usernames are checked against. */
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  return dummyHash;
}

export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async createUser(input: NewUser): Promise<UserRecord> {
    if (!USERNAME.test(input.username)) {
      throw new Invalid("username must be 2-64 letters, digits or . _ @ -", "invalid_username");
    }
    checkPassword(input.password);
    if (await this.users.findByUsername(input.username)) {
      throw new Conflict(`user ${input.username} already exists`, "user_exists");
    }
    const now = this.clock().toISOString();
    return this.users.insert({
      id: randomUUID(),
      username: input.username,
      name: input.name ?? input.username,
      password_hash: await hashPassword(input.password),
      avatar_url: null,
      admin: input.admin ?? false,
      role_id: input.roleId ?? (input.admin ? BUILT_IN_ROLES.administrator : DEFAULT_ROLE_ID),
      status: input.enabled === false ? 0 : 1,
      last_access_ip: null,
      last_access_time: null,
      created_at: now,
      updated_at: now,
    });
  }

  /**
   * The enabled user whose password matches, or null. An unknown username
   * costs the same argon2id verification as a wrong password, so timing does
   * not tell which usernames exist.
   */
  async verifyCredentials(username: string, password: string): Promise<UserRecord | null> {
    const user = await this.users.findByUsername(username);
    const passwordHash = user?.password_hash ?? (await dummyPasswordHash());
    const matches = await verifyPassword(passwordHash, password);
    return matches && user?.password_hash && user.status === 1 ? user : null;
  }

  /** Creates a user provisioned from an external issuer's claims; they sign in there, so no password. */
  async createExternalUser(input: {
    subject: string;
    username: string;
    name: string;
    avatarUrl: string | null;
    admin: boolean;
  }): Promise<UserRecord> {
    const now = this.clock().toISOString();
    return this.users.insert({
      id: randomUUID(),
      username: input.username,
      name: input.name,
      password_hash: null,
      avatar_url: input.avatarUrl,
      admin: input.admin,
      role_id: input.admin ? BUILT_IN_ROLES.administrator : DEFAULT_ROLE_ID,
      external_subject: input.subject,
      last_access_ip: null,
      last_access_time: null,
      created_at: now,
      updated_at: now,
    });
  }

  /** Self-registration as the administrator set it (docs/security.md, "Accounts"). */
  registrationSettings(): Promise<RegistrationSettings> {
    return this.users.registrationSettings();
  }

  async saveRegistrationSettings(
    settings: Pick<RegistrationSettings, "mode" | "defaultRoleId">,
    by: string,
  ): Promise<RegistrationSettings> {
    await this.users.saveRegistrationSettings(settings, by, this.clock().toISOString());
    return this.users.registrationSettings();
  }

  /**
   * A self-registration under the administrator's setting: refused when it is
   * off; otherwise an account with the setting's role, disabled until an
   * administrator enables it when approval is asked for.
   */
  async register(input: { username: string; name: string; password: string }): Promise<UserRecord> {
    const { mode, defaultRoleId } = await this.users.registrationSettings();
    if (mode === "off") {
      throw new Forbidden("registration is closed: ask an administrator for an account", "registration_closed");
    }
    return this.createUser({ ...input, roleId: defaultRoleId, enabled: mode === "open" });
  }

  /** The account behind an id while it is enabled (an ingest call, a job acting for its user). */
  async enabledUser(
    id: string,
  ): Promise<{ id: string; username: string; admin: boolean; roleId: string | null } | undefined> {
    const user = await this.users.findById(id);
    if (user?.status !== 1) return undefined;
    return { id: user.id, username: user.username, admin: user.admin, roleId: user.role_id };
  }

  /** The enabled account of this user name (a colleague named in a share). */
  async enabledUserByName(
    username: string,
  ): Promise<{ id: string; username: string; admin: boolean; roleId: string | null } | undefined> {
    const user = await this.users.findByUsername(username);
    return user ? this.enabledUser(user.id) : undefined;
  }

  async setPassword(username: string, password: string): Promise<void> {
    checkPassword(password);
    const updated = await this.users.setPasswordHash(
      username,
      await hashPassword(password),
      this.clock().toISOString(),
    );
    if (!updated) throw new NotFound(`user ${username} does not exist`, "user_not_found");
  }

  /**
   * Creates the first administrator when there is none. Returns the generated
   * password when none was configured, so the caller can print it once.
   */
  async ensureFirstAdmin(
    username: string,
    configuredPassword?: string,
  ): Promise<{ created: boolean; password?: string }> {
    if ((await this.users.countAdmins()) > 0) return { created: false };
    const password = configuredPassword ?? randomBytes(12).toString("base64url");
    await this.createUser({ username, name: "Administrator", password, admin: true });
    return { created: true, password: configuredPassword ? undefined : password };
  }

  /** An account without its secrets, enabled or not (the auth hook, user administration). */
  account(id: string): Promise<UserAccount | undefined> {
    return this.users.account(id);
  }

  /** A page of accounts by user name; the keyword matches the user name or the name. */
  /** Accounts counted by status (1 enabled, 0 disabled). */
  countByStatus(): Promise<{ status: number; count: number }[]> {
    return this.users.countByStatus();
  }

  accounts(query: PageQuery): Promise<{ users: UserAccount[]; total: number }> {
    return this.users.accounts(query);
  }

  /** Changes an account as user administration decided (its rules are the access module's). */
  updateAccount(id: string, changes: UserAccountChanges): Promise<void> {
    return this.users.updateAccount(id, changes, this.clock().toISOString());
  }

  /** Records the last access unless another request did so after `staleBefore`: true when written. */
  recordAccess(id: string, ip: string, now: string, staleBefore: string): Promise<boolean> {
    return this.users.recordAccess(id, ip, now, staleBefore);
  }

  /** How many accounts hold a role. */
  countWithRole(roleId: string): Promise<number> {
    return this.users.countWithRole(roleId);
  }

  /** The user provisioned from an external issuer under this `sub`. */
  byExternalSubject(subject: string): Promise<UserRecord | undefined> {
    return this.users.findByExternalSubject(subject);
  }

  /** Refreshes what the external issuer says about a provisioned user. */
  updateExternalProfile(
    id: string,
    profile: { name: string; avatar_url: string | null; admin: boolean },
    now: string,
  ): Promise<void> {
    return this.users.updateExternalProfile(id, profile, now);
  }

  async usernameTaken(username: string): Promise<boolean> {
    return (await this.users.findByUsername(username)) !== undefined;
  }
}

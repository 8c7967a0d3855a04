import { Invalid } from "../../http/errors.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { UserRecord } from "../users/users.repository.js";
import type { UsersService } from "../users/users.service.js";
import { type AuthThrottle, THROTTLE_RULES, TooManyAttempts } from "./auth-throttle.js";

/** Where a sign-in attempt came from. */
export interface SignInFrom {
  ip: string;
  userAgent?: string | null;
}

/** Login and self-registration at the embedded provider, throttled per account and per address. */
export class SignInService {
  constructor(
    private readonly users: UsersService,
    private readonly throttle: AuthThrottle,
    private readonly audit: AuditLog,
  ) {}

  /**
   * The user for these credentials. Unknown user and wrong password fail
   * with the same error after the same work; failures count against the
   * account and the address, and a success clears the account's count.
   * Every attempt goes to the operation log: `signin.success`, or
   * `signin.failure` (result `failed`) with the reason.
   */
  async login(username: string, password: string, from: SignInFrom): Promise<UserRecord> {
    const accountKey = `login:account:${username.toLowerCase()}`;
    const addressKey = `login:address:${from.ip}`;
    const failure = (reason: string) =>
      this.audit.recordEvent(
        { id: null, username: null, ip: from.ip, userAgent: from.userAgent },
        {
          action: "signin.failure",
          target: { type: "user", label: username },
          result: "failed",
          details: { reason },
        },
      );
    try {
      await this.throttle.check(accountKey, THROTTLE_RULES.loginAccount);
      await this.throttle.check(addressKey, THROTTLE_RULES.loginAddress);
    } catch (error) {
      if (error instanceof TooManyAttempts) await failure("throttled");
      throw error;
    }
    const user = await this.users.verifyCredentials(username, password);
    if (!user) {
      await this.throttle.record(accountKey);
      await this.throttle.record(addressKey);
      await failure("invalid_credentials");
      throw new Invalid("wrong username or password", "invalid_credentials");
    }
    await this.throttle.reset(accountKey);
    await this.audit.recordEvent(
      { id: user.id, username: user.username, ip: from.ip, userAgent: from.userAgent },
      { action: "signin.success", target: { type: "user", id: user.id, label: user.username } },
    );
    return user;
  }

  async register(input: { username: string; name: string; password: string }, from: SignInFrom): Promise<UserRecord> {
    const key = `register:address:${from.ip}`;
    await this.throttle.check(key, THROTTLE_RULES.registerAddress);
    await this.throttle.record(key);
    const user = await this.users.register({ username: input.username, name: input.name, password: input.password });
    await this.audit.recordEvent(
      { id: user.id, username: user.username, ip: from.ip, userAgent: from.userAgent },
      {
        action: "user.register",
        target: { type: "user", id: user.id, label: user.username },
        after: { username: user.username, name: user.name, roleId: user.role_id, enabled: user.status === 1 },
      },
    );
    return user;
  }
}

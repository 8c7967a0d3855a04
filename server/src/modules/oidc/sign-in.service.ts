import { Invalid } from "../../http/errors.js";
import type { UserRecord } from "../users/users.repository.js";
import type { NewUser, UsersService } from "../users/users.service.js";
import { type AuthThrottle, THROTTLE_RULES } from "./auth-throttle.js";

/** Login and self-registration at the embedded provider, throttled per account and per address. */
export class SignInService {
  constructor(
    private readonly users: UsersService,
    private readonly throttle: AuthThrottle,
  ) {}

  /**
   * The user for these credentials. Unknown user and wrong password fail
   * with the same error after the same work; failures count against the
   * account and the address, and a success clears the account's count.
   */
  async login(username: string, password: string, address: string): Promise<UserRecord> {
    const accountKey = `login:account:${username.toLowerCase()}`;
    const addressKey = `login:address:${address}`;
    await this.throttle.check(accountKey, THROTTLE_RULES.loginAccount);
    await this.throttle.check(addressKey, THROTTLE_RULES.loginAddress);
    const user = await this.users.verifyCredentials(username, password);
    if (!user) {
      await this.throttle.record(accountKey);
      await this.throttle.record(addressKey);
      throw new Invalid("wrong username or password", "invalid_credentials");
    }
    await this.throttle.reset(accountKey);
    return user;
  }

  async register(input: Required<Omit<NewUser, "admin" | "roleId">>, address: string): Promise<UserRecord> {
    const key = `register:address:${address}`;
    await this.throttle.check(key, THROTTLE_RULES.registerAddress);
    await this.throttle.record(key);
    return this.users.createUser({ username: input.username, name: input.name, password: input.password });
  }
}

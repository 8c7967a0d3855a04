import { beforeAll } from "vitest";
import type { Db } from "../db/database.js";
import { ApiTokensRepository } from "../modules/api-tokens/api-tokens.repository.js";
import { ApiTokensService } from "../modules/api-tokens/api-tokens.service.js";
import { UsersRepository } from "../modules/users/users.repository.js";
import { UsersService } from "../modules/users/users.service.js";

export interface TestPrincipal {
  id: string;
  username: string;
  /** An API token secret: the real BearerVerifier path. */
  token: string;
  headers: { authorization: string };
}

/** A user (through UsersService, like the product creates them) with a personal API token. */
export async function createPrincipal(
  db: Db,
  input: { username: string; roleId?: string; admin?: boolean; password?: string },
): Promise<TestPrincipal> {
  const user = await new UsersService(new UsersRepository(db)).createUser({
    username: input.username,
    password: input.password ?? "test-password-1",
    roleId: input.roleId,
    admin: input.admin,
  });
  const { secret } = await new ApiTokensService(new ApiTokensRepository(db)).create(user.id, { name: "test" });
  return { id: user.id, username: user.username, token: secret, headers: bearer(secret) };
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/**
 * One principal per role, named `<prefix>-<role>`, created before the file's tests (a beforeAll registered
 * here, after the app's own). The objects are filled in place then, so a test file may destructure them at once.
 */
export function usePrincipals<Role extends string>(
  ctx: () => { db: Db },
  prefix: string,
  roles: readonly Role[],
): Record<Role, TestPrincipal> {
  const principals = Object.fromEntries(roles.map((role) => [role, {} as TestPrincipal])) as Record<
    Role,
    TestPrincipal
  >;
  beforeAll(async () => {
    for (const role of roles)
      Object.assign(principals[role], await createPrincipal(ctx().db, { username: `${prefix}-${role}`, roleId: role }));
  });
  return principals;
}

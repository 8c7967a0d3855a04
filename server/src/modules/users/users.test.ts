import { expect, it } from "vitest";
import { describeEachDialect, useTestDb } from "../../test/dialects.js";
import { verifyPassword } from "./password.js";
import { UsersRepository } from "./users.repository.js";
import { UsersService } from "./users.service.js";

describeEachDialect("users", (dialect) => {
  const db = useTestDb(dialect);
  const service = () => new UsersService(new UsersRepository(db()));

  it("creates a user with an argon2id hash", async () => {
    const user = await service().createUser({ username: "reporter.li", name: "李记者", password: "correct horse" });
    expect(user.name).toBe("李记者");
    expect(user.admin).toBe(false);
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(user.password_hash!, "correct horse")).toBe(true);
    expect(await verifyPassword(user.password_hash!, "wrong horse")).toBe(false);
  });

  it("refuses a duplicate username, a bad username and a short password", async () => {
    await expect(service().createUser({ username: "reporter.li", password: "another pass" })).rejects.toMatchObject({
      status: 409,
      code: "user_exists",
    });
    await expect(service().createUser({ username: "a b", password: "long enough" })).rejects.toMatchObject({
      status: 400,
      code: "invalid_username",
    });
    await expect(service().createUser({ username: "shorty", password: "short" })).rejects.toMatchObject({
      status: 400,
      code: "weak_password",
    });
  });

  it("changes a password, and says when the user does not exist", async () => {
    await service().setPassword("reporter.li", "a new password");
    const user = await new UsersRepository(db()).findByUsername("reporter.li");
    expect(await verifyPassword(user!.password_hash!, "a new password")).toBe(true);
    await expect(service().setPassword("nobody", "whatever123")).rejects.toMatchObject({ status: 404 });
  });

  it("creates the first administrator once, generating a password when none is given", async () => {
    const first = await service().ensureFirstAdmin("admin");
    expect(first.created).toBe(true);
    expect(first.password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const admin = await new UsersRepository(db()).findByUsername("admin");
    expect(admin!.admin).toBe(true);
    expect(await verifyPassword(admin!.password_hash!, first.password!)).toBe(true);
    expect(await service().ensureFirstAdmin("admin", "ignored-password")).toEqual({ created: false });
  });
});

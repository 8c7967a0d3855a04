import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import { authorize, interactionUid, postJson, useSignInApp } from "../../test/oidc-flow.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";

const API = "/dams/api/v1";

/**
 * Self-registration is the administrator's setting (issue 14 item 2,
 * docs/security.md "Accounts"): off, approval (a new installation's default)
 * or open, with the role a new account gets (default viewer).
 */
describeEachDialect("self-registration", (dialect) => {
  const { testApp, client } = useSignInApp(dialect);
  let admin: TestPrincipal;

  beforeAll(async () => {
    admin = await createPrincipal(testApp().db, { username: "reg-admin", roleId: "administrator", admin: true });
  });

  const inject = (method: "GET" | "PUT" | "POST", url: string, payload?: object) =>
    testApp().app.inject({ method, url: `${API}${url}`, headers: admin.headers, payload });

  async function registerAndSignIn(username: string) {
    const authorization = await authorize(client.spa);
    const uid = interactionUid(authorization);
    const registered = await postJson(authorization.jar, `${client.base}/uuas/register`, {
      username,
      name: `Reg ${username}`,
      password: "registration pass",
    });
    const signIn = () =>
      postJson(authorization.jar, `${client.base}/uuas/interaction/${uid}/login`, {
        username,
        password: "registration pass",
      });
    return { registered, body: (await registered.json()) as { data?: { uuid: string; pending: boolean } }, signIn };
  }

  async function account(username: string) {
    const list = (await inject("GET", `/users?keyword=${username}`)).json().data.content as {
      id: string;
      username: string;
      status: number;
      roleId: string | null;
    }[];
    return list.find((user) => user.username === username);
  }

  it("starts with approval: a registered account waits, disabled, as a viewer until an administrator enables it", async () => {
    const config = (await testApp().app.inject({ method: "GET", url: `${API}/auth/config` })).json().data;
    expect(config.registration).toBe("approval");
    expect((await inject("GET", "/users/registration")).json().data).toMatchObject({
      mode: "approval",
      defaultRoleId: "viewer",
    });

    const { registered, body, signIn } = await registerAndSignIn("waiting.wang");
    expect(registered.status).toBe(201);
    expect(body.data).toMatchObject({ pending: true });
    expect(await account("waiting.wang")).toMatchObject({ status: 0, roleId: "viewer" });
    expect((await signIn()).status).toBe(400);

    const enabled = await inject("POST", `/users/${body.data!.uuid}/enable`);
    expect(enabled.statusCode).toBe(200);
    expect((await signIn()).status).toBe(200);
  });

  it("open: the account can sign in at once, with the role the administrator chose", async () => {
    const saved = await inject("PUT", "/users/registration", { mode: "open", defaultRoleId: "contributor" });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ mode: "open", defaultRoleId: "contributor", updatedBy: "reg-admin" });

    const { registered, body, signIn } = await registerAndSignIn("open.ouyang");
    expect(registered.status).toBe(201);
    expect(body.data).toMatchObject({ pending: false });
    expect(await account("open.ouyang")).toMatchObject({ status: 1, roleId: "contributor" });
    expect((await signIn()).status).toBe(200);
  });

  it("off: registration is refused with its reason and creates nothing; the sign-in page is told", async () => {
    expect((await inject("PUT", "/users/registration", { mode: "off", defaultRoleId: "viewer" })).statusCode).toBe(200);
    const config = (await testApp().app.inject({ method: "GET", url: `${API}/auth/config` })).json().data;
    expect(config.registration).toBe("off");

    const { registered, body } = await registerAndSignIn("closed.chen");
    expect(registered.status).toBe(403);
    expect(body).toMatchObject({ error: "registration_closed" });
    expect(await account("closed.chen")).toBeUndefined();
  });

  it("refuses an unknown role or mode by name, and keeps the setting", async () => {
    const unknownRole = await inject("PUT", "/users/registration", { mode: "open", defaultRoleId: "no-such-role" });
    expect(unknownRole.statusCode).toBe(400);
    expect(unknownRole.json().msg).toContain("defaultRoleId");
    const unknownMode = await inject("PUT", "/users/registration", { mode: "everyone", defaultRoleId: "viewer" });
    expect(unknownMode.statusCode).toBe(400);
    expect(unknownMode.json().msg).toContain("mode");
    expect((await inject("GET", "/users/registration")).json().data).toMatchObject({ mode: "off" });
  });
});

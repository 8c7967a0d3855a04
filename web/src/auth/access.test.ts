import { describe, expect, it } from "vitest";
import { type AccessSubject, isAllowed, parseActionCheck } from "./access";

const editor: AccessSubject = {
  admin: false,
  permissions: [
    { permissionId: "manage.userrole.user", actionList: ["query", "get", "edit"] },
    { permissionId: "search", actionList: ["query"] },
  ],
};

describe("the action directive rule (spec section 6)", () => {
  it("reads 'permissionId.action', the permission id may contain dots", () => {
    expect(parseActionCheck("manage.userrole.user.delete")).toEqual({
      permissionId: "manage.userrole.user",
      action: "delete",
    });
    expect(parseActionCheck("search.query")).toEqual({ permissionId: "search", action: "query" });
    expect(() => parseActionCheck("delete")).toThrow(/permissionId\.action/);
    expect(() => parseActionCheck("search.")).toThrow();
  });

  it("hides an action the role's permission does not list", () => {
    expect(isAllowed(editor, "manage.userrole.user.edit")).toBe(true);
    expect(isAllowed(editor, "manage.userrole.user.delete")).toBe(false);
    expect(isAllowed(editor, "manage.userrole.user.add")).toBe(false);
    expect(isAllowed(editor, "search.query")).toBe(true);
  });

  it("does not hide what the role's permissions do not mention (the route's permission does not exist for the role)", () => {
    expect(isAllowed(editor, "manage.userrole.role.delete")).toBe(true);
  });

  it("shows everything to administrators", () => {
    expect(isAllowed({ ...editor, admin: true }, "manage.userrole.user.delete")).toBe(true);
  });

  it("shows everything where nobody is signed in (pages exempt from login)", () => {
    expect(isAllowed(null, "manage.userrole.user.delete")).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { type LoginUser, RolesError, toCurrentUser } from "./current-user";

const role = {
  id: "editor",
  name: "editor",
  describe: "",
  status: 1,
  creatorId: null,
  createTime: "2025-01-01T00:00:00Z",
  deleted: 0,
  permissions: [
    {
      roleId: "editor",
      permissionId: "search",
      permissionName: "menu.search",
      actions: "[]",
      actionEntitySet: [],
      actionList: ["query" as const],
      dataAccess: null,
    },
  ],
};
const user: LoginUser = {
  uuid: "u1",
  name: "王记者",
  username: "reporter.wang",
  avatarUrl: null,
  lastAccessIP: "10.0.0.1",
  lastAccessTime: "2025-01-02T00:00:00Z",
  admin: false,
  role,
};

describe("current user (spec section 3)", () => {
  it("maps uuid, avatarUrl and last access to the current user's fields, with the role's permissions", () => {
    expect(toCurrentUser(user)).toMatchObject({
      id: "u1",
      name: "王记者",
      username: "reporter.wang",
      avatar: null,
      lastLoginIp: "10.0.0.1",
      lastLoginTime: "2025-01-02T00:00:00Z",
      admin: false,
      permissions: [{ permissionId: "search", actionList: ["query"] }],
    });
  });

  it("fails with 'roles must be a non-null array' when the role has no permissions (spec section 5)", () => {
    expect(() => toCurrentUser({ ...user, role: { ...role, permissions: [] } })).toThrow(new RolesError().message);
    expect(() => toCurrentUser({ ...user, role: null })).toThrow("roles must be a non-null array");
  });
});

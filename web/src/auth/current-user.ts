import { api, call } from "../api/client";
import type { components } from "../api/schema";
import type { AccessSubject } from "./access";

export type LoginUser = components["schemas"]["LoginUser"];
export type Role = components["schemas"]["Role"];

/** Spec section 5: the user info fetch fails when the role has no permissions. */
export class RolesError extends Error {
  constructor() {
    super("roles must be a non-null array");
    this.name = "RolesError";
  }
}

/** Spec section 3, "Current user", as the app uses it. */
export interface CurrentUser extends AccessSubject {
  id: string;
  name: string;
  username: string;
  avatar: string | null;
  lastLoginIp: string | null;
  lastLoginTime: string | null;
  admin: boolean;
  role: Role;
}

/** Maps the current-user answer; throws RolesError when the role grants nothing. */
export function toCurrentUser(user: LoginUser): CurrentUser {
  const role = user.role;
  if (!role || !Array.isArray(role.permissions) || role.permissions.length === 0) throw new RolesError();
  return {
    id: user.uuid,
    name: user.name,
    username: user.username,
    avatar: user.avatarUrl,
    lastLoginIp: user.lastAccessIP,
    lastLoginTime: user.lastAccessTime,
    admin: user.admin,
    role,
    permissions: role.permissions.map((p) => ({ permissionId: p.permissionId, actionList: p.actionList })),
  };
}

/** Spec section 4, step 4: "roles empty → load user info". */
export async function fetchCurrentUser(): Promise<CurrentUser> {
  return toCurrentUser(await call<LoginUser>(api.GET("/dams/api/v1/users/login/user")));
}

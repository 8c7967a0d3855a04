/** The back area's identity calls: users, roles, library grants, personal API tokens. */
import type { ListQuery, Page } from "../components/crud-table/paging";
import { api, call } from "./client";
import type { CallOptions } from "./http";
import type { components } from "./schema";

export type UserAccount = components["schemas"]["UserAccount"];
export type Role = components["schemas"]["Role"];
export type LibraryGrant = components["schemas"]["LibraryGrant"];
export type ApiToken = components["schemas"]["ApiToken"];
export type GrantLevel = LibraryGrant["level"];
export type RoleAction = components["schemas"]["RolePermission"]["actionList"][number];

type CatalogueResponse =
  import("./schema").paths["/dams/api/v1/roles/permissions"]["get"]["responses"][200]["content"]["application/json"];
export type PermissionCatalogueEntry = CatalogueResponse["data"][number];

/** A refusal the page explains with the server's message (name taken, role in use). */
const CONFLICT: CallOptions = { silentStatuses: [409] };

export const listUsers = (query: ListQuery): Promise<Page<UserAccount>> =>
  call(api.GET("/dams/api/v1/users", { params: { query } }));

export interface NewUser {
  username: string;
  name?: string;
  password: string;
  roleId?: string;
  admin?: boolean;
}
export const createUser = (user: NewUser): Promise<UserAccount> =>
  call(api.POST("/dams/api/v1/users", { body: { admin: false, ...user } }), CONFLICT);

export interface UserChange {
  name?: string;
  roleId?: string;
  admin?: boolean;
}
export const updateUser = (id: string, change: UserChange): Promise<UserAccount> =>
  call(api.PUT("/dams/api/v1/users/{id}", { params: { path: { id } }, body: change }), CONFLICT);

export const setUserEnabled = (id: string, enabled: boolean): Promise<UserAccount> =>
  enabled
    ? call(api.POST("/dams/api/v1/users/{id}/enable", { params: { path: { id } } }), CONFLICT)
    : call(api.POST("/dams/api/v1/users/{id}/disable", { params: { path: { id } } }), CONFLICT);

export const resetPassword = (id: string, password: string): Promise<null> =>
  call(api.POST("/dams/api/v1/users/{id}/password", { params: { path: { id } }, body: { password } }), CONFLICT);

export const listRoles = (query: ListQuery): Promise<Page<Role>> =>
  call(api.GET("/dams/api/v1/roles", { params: { query } }));

/** Every role, for pickers (a newsroom has a handful). */
export const allRoles = async (): Promise<Role[]> => (await listRoles({ page: 0, size: 1000 })).content;

export const permissionCatalogue = (): Promise<PermissionCatalogueEntry[]> =>
  call(api.GET("/dams/api/v1/roles/permissions"));

export interface RoleInput {
  name: string;
  describe?: string;
  status?: 0 | 1;
  permissions?: { permissionId: string; actions: RoleAction[] }[];
}
export const createRole = (role: RoleInput): Promise<Role> =>
  call(api.POST("/dams/api/v1/roles", { body: role }), CONFLICT);
export const updateRole = (id: string, role: RoleInput): Promise<Role> =>
  call(api.PUT("/dams/api/v1/roles/{id}", { params: { path: { id } }, body: role }), CONFLICT);
export const deleteRole = (id: string): Promise<null> =>
  call(api.DELETE("/dams/api/v1/roles/{id}", { params: { path: { id } } }), CONFLICT);

export const listGrants = (query: ListQuery): Promise<Page<LibraryGrant>> =>
  call(api.GET("/dams/api/v1/library-grants", { params: { query } }));
export interface GrantInput {
  libraryId: string;
  roleId?: string;
  userId?: string;
  level: GrantLevel;
}
export const createGrant = (grant: GrantInput): Promise<LibraryGrant> =>
  call(api.POST("/dams/api/v1/library-grants", { body: grant }), CONFLICT);
export const deleteGrant = (id: string): Promise<null> =>
  call(api.DELETE("/dams/api/v1/library-grants/{id}", { params: { path: { id } } }), CONFLICT);

export const listApiTokens = (): Promise<ApiToken[]> => call(api.GET("/dams/api/v1/api-tokens"));
export const createApiToken = (input: { name: string; expiresInDays?: number }) =>
  call(api.POST("/dams/api/v1/api-tokens", { body: input }), CONFLICT);
export const revokeApiToken = (id: string): Promise<null> =>
  call(api.DELETE("/dams/api/v1/api-tokens/{id}", { params: { path: { id } } }));

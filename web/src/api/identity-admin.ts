/** The back area's identity: users, roles, library grants, personal API tokens (types, calls, query keys, domain hooks). */
import { useQuery } from "@tanstack/react-query";
import type { JsonBody } from "./bodies";
import { api, call } from "./client";
import type { ListQuery, Page } from "./paging";
import { CONFLICT, restCalls } from "./resource";
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

/** The query keys of the back area's identity screens (their tables page through their own lists). */
export const identityKeys = {
  roles: () => ["roles"] as const,
  /** Every role, for pickers. */
  allRoles: () => [...identityKeys.roles(), "all"] as const,
  /** The permissions a role can grant, with their actions. */
  permissions: () => [...identityKeys.roles(), "permissions"] as const,
  apiTokens: () => ["api-tokens"] as const,
};

export const listUsers = (query: ListQuery): Promise<Page<UserAccount>> =>
  call(api.GET("/dams/api/v1/users", { params: { query } }));

export type NewUser = JsonBody<"/dams/api/v1/users", "post">;
export const createUser = (user: NewUser): Promise<UserAccount> =>
  call(api.POST("/dams/api/v1/users", { body: { admin: false, ...user } }), CONFLICT);

export type UserChange = JsonBody<"/dams/api/v1/users/{id}", "put">;
export const updateUser = (id: string, change: UserChange): Promise<UserAccount> =>
  call(api.PUT("/dams/api/v1/users/{id}", { params: { path: { id } }, body: change }), CONFLICT);

export const setUserEnabled = (id: string, enabled: boolean): Promise<UserAccount> =>
  enabled
    ? call(api.POST("/dams/api/v1/users/{id}/enable", { params: { path: { id } } }), CONFLICT)
    : call(api.POST("/dams/api/v1/users/{id}/disable", { params: { path: { id } } }), CONFLICT);

export type RegistrationSettings = components["schemas"]["RegistrationSettings"];

export const registrationKeys = { settings: () => ["registration"] as const };

export const getRegistration = (): Promise<RegistrationSettings> => call(api.GET("/dams/api/v1/users/registration"));

export const saveRegistration = (
  settings: Pick<RegistrationSettings, "mode" | "defaultRoleId">,
): Promise<RegistrationSettings> => call(api.PUT("/dams/api/v1/users/registration", { body: settings }));

export function useRegistration() {
  return useQuery({ queryKey: registrationKeys.settings(), queryFn: getRegistration });
}

export const resetPassword = (id: string, password: string): Promise<null> =>
  call(api.POST("/dams/api/v1/users/{id}/password", { params: { path: { id } }, body: { password } }), CONFLICT);

export const roleCalls = restCalls("/dams/api/v1/roles", "/dams/api/v1/roles/{id}");

/** Every role, for pickers (a newsroom has a handful). */
export const allRoles = async (): Promise<Role[]> => (await roleCalls.list({ page: 0, size: 1000 })).content;

export const permissionCatalogue = (): Promise<PermissionCatalogueEntry[]> =>
  call(api.GET("/dams/api/v1/roles/permissions"));

export type RoleInput = JsonBody<"/dams/api/v1/roles", "post">;

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

// ---------------------------------------------------------------- hooks

/** Every role, for the user and library-grant pickers. */
export const useAllRoles = () => useQuery({ queryKey: identityKeys.allRoles(), queryFn: allRoles });

/** The permission catalogue a role's matrix is built from. */
export const usePermissionCatalogue = () =>
  useQuery({ queryKey: identityKeys.permissions(), queryFn: permissionCatalogue });

/** The user's personal API tokens; asked only while `enabled` (the modal is open). */
export const useApiTokens = (enabled: boolean) =>
  useQuery({ queryKey: identityKeys.apiTokens(), queryFn: listApiTokens, enabled });

// ---------------------------------------------------------------- field-level access (/manage/userrole/property)

export type PropertyRule = components["schemas"]["PropertyRule"];

export const propertyAccessKeys = {
  rules: (roleId: string) => ["property-access", roleId] as const,
};

export const propertyRules = (roleId: string): Promise<PropertyRule[]> =>
  call(api.GET("/dams/api/v1/property-access/{roleId}", { params: { path: { roleId } } }));
export const savePropertyRules = (roleId: string, rules: PropertyRule[]): Promise<PropertyRule[]> =>
  call(api.PUT("/dams/api/v1/property-access/{roleId}", { params: { path: { roleId } }, body: { rules } }));

/** The role's rules: the properties it may not see or not edit (every other property: both). */
export const usePropertyRules = (roleId: string | undefined) =>
  useQuery({
    queryKey: propertyAccessKeys.rules(roleId ?? ""),
    queryFn: () => propertyRules(roleId ?? ""),
    enabled: roleId !== undefined,
  });

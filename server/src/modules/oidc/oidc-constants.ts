/** Where the embedded provider lives, and what the SPA asks it for. */
export const OIDC_MOUNT = "/uuas";
export const TOKEN_ROUTE = "/api/oauth/token";
export const SPA_SCOPE = "openid sso offline_access";
/** Claims the custom `sso` scope carries (and JWT access tokens repeat, as Keycloak's do). */
export const SSO_CLAIMS = ["name", "preferred_username", "picture"] as const;

import { api, call } from "../api/client";
import { ApiError } from "../api/http";
import { clearSession } from "../api/session";

/**
 * Spec section 4, step 5: logout ends the sign-in on the server (the grant,
 * its tokens and the provider session), then clears token, roles, expiry and
 * refresh token. A failure rejects with the server's message (shown titled 错误)
 * and keeps the tokens, so the user can try again — unless the server says the
 * session is already gone (401). With an external issuer the browser then
 * visits its end-session page; otherwise the page reloads and, without a
 * session, goes to sign-in.
 */
export async function logout(): Promise<void> {
  let endSessionEndpoint: string | null = null;
  try {
    const result = await call(api.POST("/dams/api/v1/auth/logout"), { silent: true });
    endSessionEndpoint = result?.endSessionEndpoint ?? null;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) throw error;
  }
  clearSession();
  if (endSessionEndpoint) window.location.assign(endSessionEndpoint);
  else window.location.reload();
}

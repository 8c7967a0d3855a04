import * as oauth from "oauth4webapi";
import {
  authorize,
  CookieJar,
  discover,
  exchangeCode,
  insecure,
  interactionUid,
  postJson,
  type SpaClient,
} from "../oidc-flow.js";

/** A browser that talks to one node directly although every URL it is given names the load balancer. */
class NodeJar extends CookieJar {
  constructor(
    private readonly lb: string,
    private readonly node: string,
  ) {
    super();
  }

  override fetch(url: string, init: RequestInit = {}): Promise<Response> {
    return super.fetch(url.startsWith(this.lb) ? this.node + url.slice(this.lb.length) : url, init);
  }
}

/** The sign-in client (issuer, redirect and resource on the load balancer), with its endpoints on one node. */
export async function spaThrough(lb: string, node: string): Promise<SpaClient> {
  const spa = await discover(`${lb}/uuas`, `${lb}/user/login`, `${lb}/dams`);
  const onNode = (url?: string) => (url?.startsWith(lb) ? node + url.slice(lb.length) : url);
  return {
    ...spa,
    as: {
      ...spa.as,
      authorization_endpoint: onNode(spa.as.authorization_endpoint),
      token_endpoint: onNode(spa.as.token_endpoint),
    },
  };
}

/** The whole PKCE sign-in (authorize, login page, consent, code exchange) on one node. */
export async function signInThrough(
  lb: string,
  node: string,
  credentials: { username: string; password: string },
): Promise<oauth.TokenEndpointResponse> {
  const spa = await spaThrough(lb, node);
  const authorization = await authorize(spa, {}, new NodeJar(lb, node));
  const uid = interactionUid(authorization);
  const login = await postJson(authorization.jar, `${node}/uuas/interaction/${uid}/login`, credentials);
  if (login.status !== 200) throw new Error(`login on ${node} answered ${login.status}: ${await login.text()}`);
  let next = ((await login.json()) as { data: { redirectTo: string } }).data.redirectTo;
  for (let hop = 0; hop < 5; hop++) {
    const response = await authorization.jar.fetch(next);
    const location = response.headers.get("location");
    if (!location) throw new Error(`resume answered ${response.status}: ${await response.text()}`);
    const url = new URL(location, next);
    if (url.href.startsWith(spa.redirectUri)) {
      const exchanged = await exchangeCode(spa, { ...authorization, callback: url });
      return oauth.processAuthorizationCodeResponse(spa.as, spa.client, exchanged, {
        expectedNonce: authorization.nonce,
        requireIdToken: true,
      });
    }
    next = url.href;
  }
  throw new Error("too many redirects");
}

/** A refresh on one node: the new tokens, or the error the token endpoint answered. */
export async function refreshThrough(
  lb: string,
  node: string,
  refreshToken: string,
): Promise<oauth.TokenEndpointResponse | { error: string }> {
  const spa = await spaThrough(lb, node);
  const response = await oauth.refreshTokenGrantRequest(spa.as, spa.client, oauth.None(), refreshToken, insecure);
  try {
    return await oauth.processRefreshTokenResponse(spa.as, spa.client, response);
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError) return { error: error.error };
    throw error;
  }
}

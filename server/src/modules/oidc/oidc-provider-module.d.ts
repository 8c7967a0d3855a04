/**
 * The slice of oidc-provider 9 this module uses. The package ships no types
 * (and @types/oidc-provider lags behind v9), so the surface we rely on is
 * declared here and nowhere else.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export type AdapterPayload = Record<string, unknown> & {
    grantId?: string;
    userCode?: string;
    uid?: string;
    consumed?: number;
  };

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface InteractionDetails {
    uid: string;
    returnTo: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id?: string; login_hint?: string; scope?: string };
    session?: { accountId?: string; uid?: string };
    exp: number;
  }

  export interface InteractionResults {
    login?: { accountId: string; remember?: boolean };
    consent?: { grantId?: string };
    error?: string;
    error_description?: string;
  }

  export interface GrantInstance {
    jti: string;
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface ClientInstance {
    clientId: string;
    clientName?: string;
  }

  /** What configuration callbacks receive as `ctx`; only `oidc` is used. */
  export interface KoaContextWithOIDC {
    oidc: {
      client?: ClientInstance;
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: InteractionResults;
      params?: Record<string, unknown>;
      provider: Provider;
      route?: string;
    };
    status: number;
    /** What Koa sends: an object goes out as JSON, nothing as the status's bare text. */
    body: unknown;
    response: { get(name: string): string };
    cookies: { set(name: string, value: string, options: Record<string, unknown>): void };
  }

  export type Middleware = (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>;

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    use(middleware: Middleware): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    urlFor(name: string, options?: Record<string, unknown>): string;
    readonly Grant: {
      new (properties: { accountId: string; clientId: string }): GrantInstance;
      find(id: string): Promise<GrantInstance | undefined>;
    };
    readonly Client: { find(id: string): Promise<ClientInstance | undefined> };
  }

  export const errors: {
    InvalidGrant: new (description?: string) => Error;
    SessionNotFound: new (description?: string) => Error;
    InvalidTarget: new (description?: string) => Error;
  };

  export interface InteractionPolicy {
    get(name: string): { checks: { remove(reason: string): void } } | undefined;
  }

  export const interactionPolicy: { base(): InteractionPolicy };

  export default Provider;
}

/**
 * Hand-written stand-in for the file openapi-typescript generates from
 * server/openapi.json (`npm run api-types -w web`); it is regenerated over this
 * one. Only the shape the web client uses is declared here.
 */

export interface paths {
  "/dams/api/v1/user-menus": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["getUserMenus"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/dams/api/v1/admin-menus": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["getAdminMenus"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/dams/api/v1/system/info": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: operations["getSystemInfo"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}

export type webhooks = Record<string, never>;

export interface components {
  schemas: {
    MenuItem: {
      id: string;
      key: string;
      path: string;
      title: string;
      icon: string | null;
      component: string | null;
      redirect: string | null;
      hidden: boolean;
      children: components["schemas"]["MenuItem"][];
    };
    ErrorEnvelope: { code: number; msg: string; error: string };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}

export type $defs = Record<string, never>;

interface MenuResponses {
  200: {
    headers: { [name: string]: unknown };
    content: {
      "application/json": { code: number; msg: string; data: components["schemas"]["MenuItem"][] };
    };
  };
  default: {
    headers: { [name: string]: unknown };
    content: { "application/json": components["schemas"]["ErrorEnvelope"] };
  };
}

export interface operations {
  getUserMenus: {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    requestBody?: never;
    responses: MenuResponses;
  };
  getAdminMenus: {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    requestBody?: never;
    responses: MenuResponses;
  };
  getSystemInfo: {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: { "application/json": { code: number; msg: string; data: { name: string; version: string } } };
      };
      default: {
        headers: { [name: string]: unknown };
        content: { "application/json": components["schemas"]["ErrorEnvelope"] };
      };
    };
  };
}

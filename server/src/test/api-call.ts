import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { API_PREFIX } from "../http/error-handler.js";

export interface Caller {
  headers: { authorization: string };
}

/** A JSON call to the API that expects `status` and returns the envelope's data. */
export async function callApi<T = unknown>(
  app: FastifyInstance,
  caller: Caller,
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  payload?: object,
  status = 200,
): Promise<T> {
  const response = await app.inject({ method, url: `${API_PREFIX}${path}`, headers: caller.headers, payload });
  expect(response.statusCode, `${method} ${path}: ${response.body}`).toBe(status);
  const body = response.json() as { data?: T; msg?: string };
  return (status === 200 ? body.data : body) as T;
}

/** A JSON call over HTTP to an app listening at `base` that expects 200 and returns the envelope's data. */
export async function fetchApi<T>(
  base: string,
  caller: Caller,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${base}${API_PREFIX}${path}`, {
    method,
    headers: { ...caller.headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, `${method} ${path}: ${text}`).toBe(200);
  return (JSON.parse(text) as { data: T }).data;
}

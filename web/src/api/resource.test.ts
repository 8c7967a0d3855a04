// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from "vitest";

// Every request the real typed client sends, answered with an empty envelope.
const sent: { method: string; path: string; query: string; body: unknown }[] = [];
vi.stubGlobal("fetch", async (request: Request) => {
  const url = new URL(request.url);
  const text = await request.text();
  sent.push({ method: request.method, path: url.pathname, query: url.search, body: text ? JSON.parse(text) : null });
  return new Response(JSON.stringify({ code: 0, msg: "ok", data: null }), {
    headers: { "content-type": "application/json" },
  });
});

import { restCalls, specCalls } from "./resource";

beforeEach(() => {
  sent.length = 0;
});

describe("restCalls", () => {
  it("lists and adds at the collection, changes and deletes at the item path's own parameter", async () => {
    const rules = restCalls("/dams/api/v1/action-rules", "/dams/api/v1/action-rules/{ruleId}");
    const input = { name: "r", trigger: "committed" as const, steps: [] };
    await rules.list({ page: 2, size: 10, keyword: "k" });
    await rules.create(input);
    await rules.update("r1", input);
    await rules.remove("r1");
    expect(sent).toEqual([
      { method: "GET", path: "/dams/api/v1/action-rules", query: "?page=2&size=10&keyword=k", body: null },
      { method: "POST", path: "/dams/api/v1/action-rules", query: "", body: input },
      { method: "PUT", path: "/dams/api/v1/action-rules/r1", query: "", body: input },
      { method: "DELETE", path: "/dams/api/v1/action-rules/r1", query: "", body: null },
    ]);
  });
});

describe("specCalls", () => {
  it("sends the id of a change in the body, and a delete's id in its path", async () => {
    const authors = specCalls({
      list: "/dams/api/v1/nrauthor/select",
      create: "/dams/api/v1/nrauthor/create",
      update: "/dams/api/v1/nrauthor/update",
      remove: "/dams/api/v1/nrauthor/delete/{id}",
    });
    await authors.list({ page: 0, size: 5 });
    await authors.create({ name: "A" });
    await authors.update("a1", { name: "B" });
    await authors.remove("a1");
    expect(sent).toEqual([
      { method: "GET", path: "/dams/api/v1/nrauthor/select", query: "?page=0&size=5", body: null },
      { method: "POST", path: "/dams/api/v1/nrauthor/create", query: "", body: { name: "A" } },
      { method: "PUT", path: "/dams/api/v1/nrauthor/update", query: "", body: { name: "B", id: "a1" } },
      { method: "DELETE", path: "/dams/api/v1/nrauthor/delete/a1", query: "", body: null },
    ]);
  });
});

import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import type { TestPrincipal } from "../../test/principals.js";
import { useShareLinks } from "./shares.test-support.js";

/**
 * The share list's filters (the administrators' "all shares" tab and "my
 * share links"): owner, state now (active, expired, revoked, used up) and
 * words of the title or message, paged; each refused when malformed.
 */
describeEachDialect("share list filters", (dialect) => {
  const { ctx, call, people, photo, share } = useShareLinks(dialect);
  let owner: TestPrincipal;
  let other: TestPrincipal;
  let admin: TestPrincipal;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ({ owner, other, admin } = people);
    const story = await photo(owner, { title: "list filters" });
    const storyOfOther = await photo(other, { title: "list filters of other" });
    const target = { kind: "story", libraryId: story.libraryId, storyId: story.id };
    ids.active = (await share(owner, { target, title: "Harbour FIRE zq7" })).id;
    ids.revoked = (await share(owner, { target, title: "Budget zq7", message: "leak for the harbour desk" })).id;
    ids.expired = (await share(owner, { target, title: "Old parade zq7" })).id;
    ids.usedUp = (await share(owner, { target, title: "Match day zq7", viewLimit: 1 })).id;
    ids.other = (
      await share(other, {
        target: { kind: "story", libraryId: storyOfOther.libraryId, storyId: storyOfOther.id },
        title: "Harbour of other zq7",
      })
    ).id;
    expect((await call(owner, "DELETE", `/shares/${ids.revoked}`)).statusCode).toBe(200);
    const kysely = ctx().db.kysely;
    const past = new Date(Date.now() - 86_400_000).toISOString();
    await kysely.updateTable("shares").set({ expires_at: past }).where("id", "=", ids.expired!).execute();
    await kysely.updateTable("shares").set({ views: 1 }).where("id", "=", ids.usedUp!).execute();
  });

  const listed = async (who: TestPrincipal, query: string) => {
    const response = await call(who, "GET", `/shares?size=50&${query}`);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json().data as {
      content: { id: string; state: string; createdByName: string | null }[];
      totalElements: number;
    };
    return page;
  };
  const idsOf = async (who: TestPrincipal, query: string) =>
    (await listed(who, query)).content.map((item) => item.id).sort();

  it("filters my shares by state now, each share in exactly one state", async () => {
    expect(await idsOf(owner, "state=active&keyword=zq7")).toEqual([ids.active]);
    expect(await idsOf(owner, "state=revoked&keyword=zq7")).toEqual([ids.revoked]);
    expect(await idsOf(owner, "state=expired&keyword=zq7")).toEqual([ids.expired]);
    expect(await idsOf(owner, "state=used-up&keyword=zq7")).toEqual([ids.usedUp]);
    const all = await listed(owner, "keyword=zq7");
    expect(all.totalElements).toBe(4);
    const states = Object.fromEntries(all.content.map((item) => [item.id, item.state]));
    expect(states).toEqual({
      [ids.active!]: "active",
      [ids.revoked!]: "revoked",
      [ids.expired!]: "expired",
      [ids.usedUp!]: "used-up",
    });
  });

  it("matches words of the title or the message, whatever their case", async () => {
    expect(await idsOf(owner, "keyword=harbour")).toEqual([ids.active, ids.revoked].sort());
    expect(await idsOf(owner, "keyword=FIRE%20ZQ7")).toEqual([ids.active]);
    expect(await idsOf(owner, "keyword=no%20such%20words")).toEqual([]);
  });

  it("gives administrators everyone's shares, or one owner's, with the owner's name; pages them", async () => {
    const everyone = await listed(admin, "all=true&keyword=harbour");
    expect(everyone.content.map((item) => item.id).sort()).toEqual([ids.active, ids.revoked, ids.other].sort());
    expect(everyone.content.find((item) => item.id === ids.other)?.createdByName).toBe("share-other");
    expect(await idsOf(admin, `owner=${other.id}&keyword=zq7`)).toEqual([ids.other]);
    expect(await idsOf(admin, `all=true&owner=${owner.id}&state=active&keyword=zq7`)).toEqual([ids.active]);

    const first = (await call(admin, "GET", "/shares?all=true&keyword=zq7&size=2&page=0")).json().data;
    const second = (await call(admin, "GET", "/shares?all=true&keyword=zq7&size=2&page=2")).json().data;
    expect(first).toMatchObject({ totalElements: 5, size: 2, number: 0 });
    expect(first.content).toHaveLength(2);
    expect(second.content).toHaveLength(1);
  });

  it("refuses another user's shares to non-administrators, and my own owner filter is mine", async () => {
    const others = await call(owner, "GET", `/shares?owner=${other.id}`);
    expect(others.statusCode).toBe(403);
    expect((await call(owner, "GET", "/shares?all=true&state=active")).statusCode).toBe(403);
    expect(await idsOf(owner, `owner=${owner.id}&state=active&keyword=zq7`)).toEqual([ids.active]);
  });

  it("answers 400 naming the field for a malformed filter", async () => {
    for (const [query, field] of [
      ["state=gone", "state"],
      [`keyword=${"x".repeat(201)}`, "keyword"],
      ["owner=", "owner"],
      [`owner=${"u".repeat(101)}`, "owner"],
      ["all=yes", "all"],
      ["size=0", "size"],
      ["page=-1", "page"],
    ] as const) {
      const response = await call(admin, "GET", `/shares?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.body, query).toContain(field);
    }
  });
});

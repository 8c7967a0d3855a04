import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../test/dialects.js";
import type { TestPrincipal } from "../../test/principals.js";
import { useShareLinks } from "./shares.test-support.js";

/**
 * Field-level access on share pages (docs/sharing.md, docs/property-access.md):
 * a visitor has no role and is trusted less than any, so a share showing all
 * metadata leaves out every property hidden from some role — whoever shares.
 */
describeEachDialect("share links and hidden properties", (dialect) => {
  const { ctx, call, people, visitor, photo, share } = useShareLinks(dialect);
  let owner: TestPrincipal;
  let admin: TestPrincipal;
  let story: { id: string; libraryId: string };

  const rules = (roleId: string, hidden: string[]) =>
    call(admin, "PUT", `/property-access/${roleId}`, {
      rules: hidden.map((property) => ({ property, visible: false, editable: false })),
    });
  /** The properties a visitor of `who`'s all-metadata share of the story sees. */
  async function visitorSees(who: TestPrincipal): Promise<Record<string, unknown>> {
    const created = await share(who, {
      target: { kind: "story", libraryId: story.libraryId, storyId: story.id },
      metadata: "all",
    });
    const guest = visitor();
    guest.session.token = created.token;
    const opened = await guest.open();
    expect(opened.statusCode, opened.body).toBe(200);
    return opened.json().data.stories[0].metadata.properties;
  }

  beforeAll(async () => {
    ({ owner, admin } = people);
    story = await photo(owner, { title: "稿费 story" });
    await ctx()
      .db.kysely.updateTable("stories")
      .set({ properties: JSON.stringify({ sourceFee: 800, internalNote: "do not print", lens: "50mm" }) })
      .where("id", "=", story.id)
      .execute();
    // "source fee" is hidden from contributors only; the owner (an editor) may not see the internal note.
    expect((await rules("contributor", ["sourceFee"])).statusCode).toBe(200);
    expect((await rules("editor", ["internalNote"])).statusCode).toBe(200);
  });

  afterAll(async () => {
    await rules("contributor", []);
    await rules("editor", []);
  });

  it("shows a visitor no property hidden from any role, though the owner sees it", async () => {
    const ownView = await call(owner, "GET", `/stories/${story.libraryId}/${story.id}`);
    expect(ownView.json().data.properties).toEqual({ sourceFee: 800, lens: "50mm" });

    expect(await visitorSees(owner)).toEqual({ lens: "50mm" });
    // An administrator sees every property, and still shares none that some role may not see.
    expect(await visitorSees(admin)).toEqual({ lens: "50mm" });
  });

  it("shows the property again once no role hides it", async () => {
    await rules("contributor", []);
    expect(await visitorSees(owner)).toEqual({ sourceFee: 800, lens: "50mm" });
    await rules("contributor", ["sourceFee"]);
  });
});

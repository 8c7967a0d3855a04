import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { API_PREFIX } from "../../http/error-handler.js";
import { describeEachDialect } from "../../test/dialects.js";
import { createPrincipal, type TestPrincipal } from "../../test/principals.js";
import { RolesRepository } from "../access/roles.repository.js";
import { useShareLinks } from "./shares.test-support.js";

/** Share links' abuse cases: a table, each refused, counted in `refused`. */
describeEachDialect("share link abuse", (dialect) => {
  const { ctx, call, people, visitor, photo, share } = useShareLinks(dialect);
  let owner: TestPrincipal;
  let other: TestPrincipal;
  let admin: TestPrincipal;
  const refused = new Set<string>();

  beforeAll(() => {
    ({ owner, other, admin } = people);
  });

  afterAll(() => {
    console.log(`share abuse cases refused [${dialect}]: ${refused.size} (${[...refused].sort().join(", ")})`);
  });

  it("refuses every abuse case", async () => {
    const case_ = async (name: string, check: () => Promise<void>) => {
      await check();
      refused.add(name);
    };
    const gone = (response: { statusCode: number; json(): { error: string; msg: string } }) => {
      expect(response.statusCode).toBe(410);
      expect(response.json().error).toBe("share_unavailable");
      return response.json().msg;
    };

    await case_("expired", async () => {
      const story = await photo(owner);
      const created = await share(owner, { target: { kind: "story", libraryId: "product", storyId: story.id } });
      const guest = visitor();
      guest.session.token = created.token;
      const preview = (await guest.open()).json().data.stories[0].preview.url;
      await ctx()
        .db.kysely.updateTable("shares")
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where("id", "=", created.id)
        .execute();
      gone(await guest.open());
      gone(await guest.get(preview));
    });

    let revokedMessage = "";
    await case_("revoked (link and the file URLs it handed out)", async () => {
      const story = await photo(owner);
      const created = await share(owner, {
        target: { kind: "story", libraryId: "product", storyId: story.id },
        downloadPolicy: "original",
      });
      const guest = visitor();
      guest.session.token = created.token;
      const shown = (await guest.open()).json().data.stories[0];
      expect((await call(other, "DELETE", `/shares/${created.id}`)).statusCode).toBe(404);
      expect((await call(owner, "DELETE", `/shares/${created.id}`)).statusCode).toBe(200);
      revokedMessage = gone(await guest.open());
      gone(await guest.get(shown.preview.url));
      gone(await guest.get(shown.downloadUrl));
      expect(
        (await call(owner, "GET", "/shares")).json().data.content.find((s: { id: string }) => s.id === created.id),
      ).toMatchObject({ state: "revoked" });
    });

    await case_("wrong password ×N → throttled", async () => {
      const story = await photo(owner);
      const created = await share(owner, {
        target: { kind: "story", libraryId: "product", storyId: story.id },
        password: "right one",
      });
      const answers = new Set<string>();
      // From many addresses: the per-link limit (10 in 15 minutes) stops them all.
      for (let attempt = 0; attempt < 10; attempt++) {
        const guest = visitor();
        guest.session.token = created.token;
        const response = await guest.unlock(`guess ${attempt}`);
        expect(response.statusCode).toBe(401);
        answers.add(response.body);
      }
      expect(answers.size).toBe(1);
      const late = visitor();
      late.session.token = created.token;
      expect((await late.unlock("right one")).statusCode).toBe(429);
      // Locked content stays locked without the session.
      expect((await late.get(`${API_PREFIX}/shared`)).json().data.stories).toEqual([]);
    });

    await case_("a session of one share on another", async () => {
      const one = await share(owner, {
        target: { kind: "story", libraryId: "product", storyId: (await photo(owner)).id },
        password: "pass one",
      });
      const two = await share(owner, {
        target: { kind: "story", libraryId: "product", storyId: (await photo(owner)).id },
        password: "pass two",
      });
      const guest = visitor();
      guest.session.token = one.token;
      guest.session.session = (await guest.unlock("pass one")).json().data.session;
      guest.session.token = two.token;
      expect((await guest.open()).json().data.locked).toBe(true);
    });

    await case_("a file URL for story A changed to story B", async () => {
      const a = await photo(owner);
      const b = await photo(owner);
      const created = await share(owner, { target: { kind: "story", libraryId: "product", storyId: a.id } });
      const guest = visitor();
      guest.session.token = created.token;
      const url: string = (await guest.open()).json().data.stories[0].preview.url;
      const [body, signature] = url.split("/").pop()!.split(".");
      const claims = JSON.parse(Buffer.from(body!, "base64url").toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, s: b.id })).toString("base64url");
      const response = await guest.get(`${API_PREFIX}/shared/files/${forged}.${signature}`);
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toContain("preview of");
      // A user's signed media URL is not a share's.
      const userMedia = (await call(owner, "GET", `/stories/product/${b.id}/media-url?rendition=preview`)).json().data
        .url;
      expect((await guest.get(`${API_PREFIX}/shared/files/${userMedia.split("/").pop()}`)).statusCode).toBe(403);
    });

    await case_("a folder share reaching its parent or a sibling", async () => {
      // The library's manager (an administrator) makes the folders; the owner files photos in them and shares one.
      const parent = (
        await call(admin, "POST", "/libraries/product/folders", { name: `p-${randomBytes(3).toString("hex")}` })
      ).json().data.id;
      const child = (
        await call(admin, "POST", "/libraries/product/folders", { name: "child", parentId: parent })
      ).json().data.id;
      const sibling = (
        await call(admin, "POST", "/libraries/product/folders", { name: "sibling", parentId: parent })
      ).json().data.id;
      const grandchild = (
        await call(admin, "POST", "/libraries/product/folders", { name: "deeper", parentId: child })
      ).json().data.id;
      const inParent = await photo(owner, { folderId: parent, title: "parent" });
      await photo(owner, { folderId: sibling, title: "sibling" });
      await photo(owner, { folderId: child, title: "child" });
      await photo(owner, { folderId: grandchild, title: "grandchild" });
      const created = await share(owner, { target: { kind: "folder", libraryId: "product", folderId: child } });
      const guest = visitor();
      guest.session.token = created.token;
      const opened = (await guest.open()).json().data;
      expect(opened.stories.map((s: { title: string }) => s.title).sort()).toEqual(["child", "grandchild"]);
      expect(JSON.stringify(opened)).not.toContain(inParent.id);
    });

    await case_("views over the limit", async () => {
      const created = await share(owner, {
        target: { kind: "story", libraryId: "product", storyId: (await photo(owner)).id },
        viewLimit: 2,
      });
      const guest = visitor();
      guest.session.token = created.token;
      expect((await guest.open()).statusCode).toBe(200);
      expect((await guest.open()).statusCode).toBe(200);
      gone(await guest.open());
    });

    await case_("downloads over the limit", async () => {
      const created = await share(owner, {
        target: { kind: "story", libraryId: "product", storyId: (await photo(owner)).id },
        downloadLimit: 1,
      });
      const guest = visitor();
      guest.session.token = created.token;
      const url = (await guest.open()).json().data.stories[0].downloadUrl;
      expect((await guest.get(url)).statusCode).toBe(200);
      const second = await guest.get(url);
      expect(second.statusCode).toBe(403);
      expect(second.json().error).toBe("share_download_limit");
    });

    await case_("downloads the share does not allow", async () => {
      const created = await share(owner, {
        target: { kind: "story", libraryId: "product", storyId: (await photo(owner)).id },
        downloadPolicy: "preview",
      });
      const guest = visitor();
      guest.session.token = created.token;
      const shown = (await guest.open()).json().data.stories[0];
      const [body, signature] = shown.downloadUrl.split("/").pop()!.split(".");
      const claims = JSON.parse(Buffer.from(body, "base64url").toString());
      expect(claims.r).toBe("preview");
      const forged = Buffer.from(JSON.stringify({ ...claims, r: "original" })).toString("base64url");
      expect((await guest.get(`${API_PREFIX}/shared/files/${forged}.${signature}`)).statusCode).toBe(403);
    });

    await case_("an owner who lost access", async () => {
      const suffix = randomBytes(3).toString("hex");
      const ownerNow = await createPrincipal(ctx().db, { username: `share-leaver-${suffix}`, roleId: "editor" });
      const created = await share(ownerNow, {
        target: { kind: "story", libraryId: "product", storyId: (await photo(ownerNow)).id },
      });
      const guest = visitor();
      guest.session.token = created.token;
      expect((await guest.open()).statusCode).toBe(200);
      const noLibraries = await new RolesRepository(ctx().db).insert(
        { name: `no libraries ${suffix}`, describe: "", status: 1, creatorId: null },
        [],
        new Date().toISOString(),
      );
      await ctx().db.kysely.updateTable("users").set({ role_id: noLibraries }).where("id", "=", ownerNow.id).execute();
      gone(await guest.open());
      await ctx()
        .db.kysely.updateTable("users")
        .set({ role_id: "editor", status: 0 })
        .where("id", "=", ownerNow.id)
        .execute();
      gone(await guest.open());
    });

    await case_("enumeration of tokens", async () => {
      const guest = visitor();
      const bodies = new Set<string>();
      for (let attempt = 0; attempt < 30; attempt++) {
        guest.session.token = randomBytes(32).toString("base64url");
        const response = await guest.open();
        expect(response.statusCode).toBe(410);
        bodies.add(response.body);
      }
      // Unknown, malformed and revoked: the same answer.
      expect(bodies.size).toBe(1);
      expect(JSON.parse([...bodies][0]!).msg).toBe(revokedMessage);
      guest.session.token = randomBytes(32).toString("base64url");
      expect((await guest.open()).statusCode).toBe(429);
      const fresh = visitor();
      expect((await fresh.open()).statusCode).toBe(410);
      expect((await fresh.get(`${API_PREFIX}/shared`, { authorization: owner.headers.authorization })).statusCode).toBe(
        410,
      );
    });

    expect(refused.size).toBe(11);
  });
});

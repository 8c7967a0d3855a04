import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NotFound } from "../../http/errors.js";
import { rgwAvailable, startRgwBucket, startTestS3Server, type TestS3Server } from "../../test/s3-servers.js";
import type { BlobStore } from "./blob-store.js";
import { LocalBlobStore } from "./local-blob-store.js";
import { S3BlobStore } from "./s3-blob-store.js";

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function keysOf(store: BlobStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list(prefix)) keys.push(key);
  return keys.sort();
}

/** A stream that sends some bytes and then fails, like a client that drops mid-upload. */
function failingStream(): Readable {
  return Readable.from(
    (async function* () {
      yield randomBytes(64 * 1024);
      throw new Error("connection lost");
    })(),
  );
}

interface StoreUnderTest {
  store: BlobStore;
  scratch: string;
}

/** The one contract every BlobStore keeps, run against each implementation. */
function blobStoreContract(name: string, setUp: () => Promise<{ store: BlobStore; close(): Promise<void> }>) {
  describe(`BlobStore contract: ${name}`, () => {
    let current: StoreUnderTest;
    let close: () => Promise<void>;
    beforeAll(async () => {
      const made = await setUp();
      close = made.close;
      current = { store: made.store, scratch: fs.mkdtempSync(path.join(os.tmpdir(), "dams-blob-src-")) };
    });
    afterAll(async () => {
      await close();
      fs.rmSync(current.scratch, { recursive: true, force: true });
    });

    it("stores a stream and gives the same bytes back, whole and by range", async () => {
      const { store } = current;
      const body = randomBytes(3 * 1024 * 1024 + 17);
      const stored = await store.put("originals/aa/bb/whole", Readable.from([body]), { contentType: "image/jpeg" });
      expect(stored).toEqual({ key: "originals/aa/bb/whole", size: body.length });
      expect((await store.stat("originals/aa/bb/whole"))?.size).toBe(body.length);
      expect((await bytesOf(await store.get("originals/aa/bb/whole"))).equals(body)).toBe(true);
      const range = await bytesOf(await store.get("originals/aa/bb/whole", { start: 1000, end: 1999 }));
      expect(range.equals(body.subarray(1000, 2000))).toBe(true);
      const last = await bytesOf(
        await store.get("originals/aa/bb/whole", { start: body.length - 1, end: body.length - 1 }),
      );
      expect(last.equals(body.subarray(body.length - 1))).toBe(true);
    });

    it("overwrites a key", async () => {
      const { store } = current;
      await store.put("renditions/over", Readable.from([Buffer.from("first version")]));
      await store.put("renditions/over", Readable.from([Buffer.from("second")]));
      expect((await bytesOf(await store.get("renditions/over"))).toString()).toBe("second");
      expect((await store.stat("renditions/over"))?.size).toBe(6);
    });

    it("moves a finished file in: the blob has its bytes and the source is gone", async () => {
      const { store, scratch } = current;
      const body = randomBytes(20 * 1024 * 1024 + 3);
      const file = path.join(scratch, "finished-upload");
      fs.writeFileSync(file, body);
      const stored = await store.putFile("originals/cc/dd/moved", file, { contentType: "video/mp4" });
      expect(stored.size).toBe(body.length);
      expect(fs.existsSync(file)).toBe(false);
      const digest = createHash("sha256")
        .update(await bytesOf(await store.get("originals/cc/dd/moved")))
        .digest("hex");
      expect(digest).toBe(createHash("sha256").update(body).digest("hex"));
    });

    it("answers NotFound, null and silence for a missing key", async () => {
      const { store } = current;
      await expect(store.get("originals/no/ne/missing")).rejects.toBeInstanceOf(NotFound);
      expect(await store.stat("originals/no/ne/missing")).toBeNull();
      await expect(store.delete("originals/no/ne/missing")).resolves.toBeUndefined();
      await expect(store.withLocalFile("originals/no/ne/missing", async () => 1)).rejects.toBeInstanceOf(NotFound);
    });

    it("deletes", async () => {
      const { store } = current;
      await store.put("originals/ee/ff/gone", Readable.from([Buffer.from("x")]));
      await store.delete("originals/ee/ff/gone");
      expect(await store.stat("originals/ee/ff/gone")).toBeNull();
    });

    it("lists keys under a prefix and nothing else", async () => {
      const { store } = current;
      for (const key of ["list/a/1", "list/a/2", "list/b/3", "listing-not/4"])
        await store.put(key, Readable.from([Buffer.from(key)]));
      expect(await keysOf(store, "list/")).toEqual(["list/a/1", "list/a/2", "list/b/3"]);
      expect(await keysOf(store, "list/a/")).toEqual(["list/a/1", "list/a/2"]);
      expect(await keysOf(store, "list")).toEqual(["list/a/1", "list/a/2", "list/b/3", "listing-not/4"]);
      expect(await keysOf(store, "nothing-here/")).toEqual([]);
    });

    it("lends a local file holding the blob", async () => {
      const { store } = current;
      await store.put("originals/gg/hh/local", Readable.from([Buffer.from("for ffmpeg")]));
      const seen = await store.withLocalFile("originals/gg/hh/local", async (file) => fs.readFileSync(file, "utf8"));
      expect(seen).toBe("for ffmpeg");
    });

    it("refuses keys that could leave the store", async () => {
      const { store } = current;
      for (const key of ["../escape", "/absolute", "a//b", "a/../b", ".tmp/x", "a/.hidden", "", "a/b/"]) {
        await expect(store.put(key, Readable.from([Buffer.from("x")])), key).rejects.toThrow(/not a valid blob key/);
        await expect(store.get(key), key).rejects.toThrow(/not a valid blob key/);
      }
    });

    it("leaves nothing behind when the body fails midway", async () => {
      const { store } = current;
      await expect(store.put("originals/ii/jj/broken", failingStream())).rejects.toThrow();
      expect(await store.stat("originals/ii/jj/broken")).toBeNull();
      expect(await keysOf(store, "originals/ii/")).toEqual([]);
    });
  });
}

blobStoreContract("local", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "dams-blobs-"));
  const store = new LocalBlobStore(root);
  return {
    store,
    close: async () => {
      // Atomic writes: nothing may be left in the temporary directory.
      expect(fs.readdirSync(path.join(root, ".tmp"))).toEqual([]);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
});

describe("LocalBlobStore start-up", () => {
  it("removes temporary files a crash left behind, and only stale ones", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "dams-blobs-"));
    fs.mkdirSync(path.join(root, ".tmp"));
    fs.writeFileSync(path.join(root, ".tmp", "half-written"), "x");
    fs.writeFileSync(path.join(root, ".tmp", "in-flight"), "x");
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(path.join(root, ".tmp", "half-written"), old, old);
    new LocalBlobStore(root);
    expect(fs.readdirSync(path.join(root, ".tmp"))).toEqual(["in-flight"]);
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe("LocalBlobStore directories", () => {
  it("makes a key's directory only when it is missing, not before every write", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "dams-blobs-"));
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "dams-blob-src-"));
    const store = new LocalBlobStore(root);
    const mkdir = vi.spyOn(fsp, "mkdir");
    try {
      await store.put("originals/ee/ff/first", Readable.from([Buffer.from("one")]));
      expect(mkdir).toHaveBeenCalledTimes(1);
      fs.writeFileSync(path.join(scratch, "finished"), "two");
      await store.putFile("originals/ee/ff/second", path.join(scratch, "finished"));
      await store.put("originals/ee/ff/first", Readable.from([Buffer.from("three")]));
      expect(mkdir).toHaveBeenCalledTimes(1);
      expect((await bytesOf(await store.get("originals/ee/ff/second"))).toString()).toBe("two");
      expect((await bytesOf(await store.get("originals/ee/ff/first"))).toString()).toBe("three");
      await store.put("originals/ee/gg/third", Readable.from([Buffer.from("four")]));
      expect(mkdir).toHaveBeenCalledTimes(2);
      expect(await keysOf(store, "originals/")).toEqual([
        "originals/ee/ff/first",
        "originals/ee/ff/second",
        "originals/ee/gg/third",
      ]);
    } finally {
      mkdir.mockRestore();
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});

blobStoreContract("s3 (s3rver, a quick fake)", async () => {
  const server = await startTestS3Server();
  return { store: new S3BlobStore(server.config), close: () => server.close() };
});

describe.skipIf(!rgwAvailable())("against Ceph RGW", () => {
  blobStoreContract("s3 (Ceph RGW)", async () => {
    const bucket = await startRgwBucket();
    return { store: new S3BlobStore(bucket.config), close: () => bucket.close() };
  });

  describe("S3BlobStore moving objects inside the bucket (a finished tus upload to its blob key)", () => {
    let bucket: TestS3Server;
    beforeAll(async () => {
      bucket = await startRgwBucket();
    });
    afterAll(() => bucket.close());

    for (const [how, tuning] of [
      ["in one copy", {}],
      // Past the copy limit objects are copied by ranges (UploadPartCopy); small limits exercise it here.
      ["by parts", { copyObjectLimit: 1024 * 1024, copyPartSize: 5 * 1024 * 1024 }],
    ] as const) {
      it(`moves ${how}: the new key has the bytes and the type, the old one is gone`, async () => {
        const store = new S3BlobStore(bucket.config, tuning);
        const body = randomBytes(12 * 1024 * 1024 + 11);
        await store.put("uploads/0123abcd", Readable.from([body]));
        const moved = await store.moveObject("uploads/0123abcd", "originals/mm/nn/moved", { contentType: "video/mp4" });
        expect(moved).toEqual({ key: "originals/mm/nn/moved", size: body.length });
        expect(await store.stat("uploads/0123abcd")).toBeNull();
        const copy = await bytesOf(await store.get("originals/mm/nn/moved"));
        expect(createHash("sha256").update(copy).digest("hex")).toBe(createHash("sha256").update(body).digest("hex"));
        const head = await store.client.send(
          new HeadObjectCommand({ Bucket: bucket.config.bucket, Key: "originals/mm/nn/moved" }),
        );
        expect(head.ContentType).toBe("video/mp4");
        await expect(store.moveObject("uploads/0123abcd", "originals/mm/nn/again")).rejects.toBeInstanceOf(NotFound);
      });
    }
  });

  describe("S3BlobStore presigned downloads", () => {
    let bucket: TestS3Server;
    beforeAll(async () => {
      bucket = await startRgwBucket({ presignedDownloads: true });
    });
    afterAll(() => bucket.close());

    it("signs a GET that the server honours, with an RFC 6266 file name, and a changed URL is refused", async () => {
      const store = new S3BlobStore(bucket.config);
      await store.put("originals/kk/ll/signed", Readable.from([Buffer.from("signed bytes")]));
      const url = await store.presignedUrl("originals/kk/ll/signed", {
        fileName: "台风 photo.jpg",
        contentType: "image/jpeg",
        expiresInSeconds: 60,
      });
      expect(url).toMatch(/X-Amz-Signature=/);
      const response = await fetch(url!);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("signed bytes");
      expect(response.headers.get("content-type")).toBe("image/jpeg");
      expect(response.headers.get("content-disposition")).toContain("filename*=UTF-8''%E5%8F%B0%E9%A3%8E%20photo.jpg");
      // RGW verifies the SigV4 signature: another key, file name or signature is refused.
      const other = new URL(url!);
      other.searchParams.set("response-content-disposition", "inline");
      expect((await fetch(other)).status).toBe(403);
      const forged = new URL(url!);
      forged.searchParams.set("X-Amz-Signature", "0".repeat(64));
      expect((await fetch(forged)).status).toBe(403);
      const impostor = new S3BlobStore({
        ...bucket.config,
        credentials: { accessKeyId: bucket.config.credentials!.accessKeyId, secretAccessKey: "not-the-secret" },
      });
      const unsigned = await impostor.presignedUrl("originals/kk/ll/signed", {
        fileName: "a.jpg",
        contentType: "image/jpeg",
        expiresInSeconds: 60,
      });
      expect((await fetch(unsigned!)).status).toBe(403);
    });

    it("signs nothing when presigned downloads are off", async () => {
      const store = new S3BlobStore({ ...bucket.config, presignedDownloads: false });
      expect(
        await store.presignedUrl("originals/kk/ll/signed", { fileName: "a", contentType: "a/b", expiresInSeconds: 60 }),
      ).toBeNull();
    });
  });
});

import net from "node:net";
import { Readable } from "node:stream";
import { S3ServiceException } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3BlobStore } from "./s3-blob-store.js";
import { isStorageUnreachable, StorageUnavailable } from "./storage-errors.js";

/** A port where nothing listens any more: connections are refused, as when the gateway is stopped. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("an unreachable object store", () => {
  let store: S3BlobStore;
  beforeAll(async () => {
    store = new S3BlobStore({
      kind: "s3",
      bucket: "gone",
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${await closedPort()}`,
      forcePathStyle: true,
      credentials: { accessKeyId: "a", secretAccessKey: "b" },
      presignedDownloads: false,
      scratchDirectory: "/tmp",
    });
  });
  afterAll(() => store.client.destroy());

  it("answers 503 with a message a person understands, for reads, writes and listings", async () => {
    for (const attempt of [
      () => store.get("originals/aa/bb/x"),
      () => store.stat("originals/aa/bb/x"),
      () => store.put("originals/aa/bb/x", Readable.from([Buffer.from("x")])),
      async () => {
        for await (const _key of store.list("originals/")) break;
      },
    ]) {
      const error = await attempt().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StorageUnavailable);
      expect(error).toMatchObject({ status: 503, code: "storage_unavailable", msgCode: "storage.unavailable" });
      expect((error as Error).message).toBe("The media storage cannot be reached at the moment; try again shortly.");
    }
  });

  it("tells failures of the store from answers about an object", () => {
    const answer = (status: number, name: string) =>
      new S3ServiceException({ name, $fault: "server", $metadata: { httpStatusCode: status } });
    expect(isStorageUnreachable(answer(503, "SlowDown"))).toBe(true);
    expect(isStorageUnreachable(answer(500, "InternalError"))).toBe(true);
    expect(isStorageUnreachable(answer(404, "NoSuchKey"))).toBe(false);
    expect(isStorageUnreachable(answer(403, "AccessDenied"))).toBe(false);
    expect(isStorageUnreachable(Object.assign(new Error("connect"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isStorageUnreachable(new Error("a bug"))).toBe(false);
  });
});

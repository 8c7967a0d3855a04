import { randomUUID } from "node:crypto";
import {
  DeleteObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import type { S3Settings } from "../channels.schema.js";
import { DeliveryError, type DeliveryPackage, type Transport } from "./transport.js";

/** Bucket, prefix and key of a name. */
function keyOf(settings: S3Settings, name: string): string {
  const prefix = settings.prefix.replace(/^\/+|\/+$/g, "");
  return prefix ? `${prefix}/${name}` : name;
}

function s3Reason(error: unknown, bucket: string): DeliveryError {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  const status = $metadata?.httpStatusCode;
  if (name === "NoSuchBucket" || status === 404) return new DeliveryError(`the bucket ${bucket} does not exist`, false);
  if (name === "InvalidAccessKeyId" || name === "SignatureDoesNotMatch" || status === 403)
    return new DeliveryError(`the S3 server refused the access key for ${bucket} (${name ?? status})`, false);
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ECONNREFUSED") return new DeliveryError("the S3 server refused the connection", true);
  return new DeliveryError(`S3 ${name ?? "error"}: ${(error as Error).message}`, true);
}

/**
 * An S3-compatible bucket (AWS, Ceph RGW, MinIO) through the same AWS SDK
 * client the blob store uses: files, then the item, under the prefix; a
 * kill deletes the story's files and writes the kill item.
 */
export class S3Transport implements Transport {
  readonly #client: S3Client;

  constructor(
    private readonly settings: S3Settings,
    credentials: Record<string, string>,
  ) {
    this.#client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        credentials.accessKeyId && credentials.secretAccessKey
          ? { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey }
          : undefined,
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      maxAttempts: 1,
    });
  }

  async test(signal: AbortSignal): Promise<string> {
    const { bucket } = this.settings;
    const probe = keyOf(this.settings, `.dams-probe-${randomUUID()}`);
    try {
      await this.#client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: signal });
      await this.#client.send(new PutObjectCommand({ Bucket: bucket, Key: probe, Body: "" }), { abortSignal: signal });
      await this.#client.send(new DeleteObjectCommand({ Bucket: bucket, Key: probe }), { abortSignal: signal });
    } catch (error) {
      throw s3Reason(error, bucket);
    } finally {
      this.#client.destroy();
    }
    return `the bucket ${bucket} exists and accepts writes`;
  }

  async deliver(delivery: DeliveryPackage, signal: AbortSignal): Promise<void> {
    const { bucket } = this.settings;
    try {
      if (delivery.action === "kill") {
        const listed = await this.#client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: keyOf(this.settings, `${delivery.baseName}.`) }),
          { abortSignal: signal },
        );
        for (const object of listed.Contents ?? []) {
          if (object.Key)
            await this.#client.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.Key }), {
              abortSignal: signal,
            });
        }
      }
      for (const file of delivery.action === "publish" ? delivery.files : []) {
        await this.#client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: keyOf(this.settings, file.name),
            Body: await file.open(),
            ContentLength: file.size,
            ContentType: file.mime,
            Metadata: { "dams-delivery": delivery.deliveryId },
          }),
          { abortSignal: signal },
        );
      }
      const { item } = delivery;
      await this.#client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: keyOf(this.settings, item.name),
          Body: item.body,
          ContentType: item.mime,
          Metadata: { "dams-delivery": delivery.deliveryId },
        }),
        { abortSignal: signal },
      );
    } catch (error) {
      throw s3Reason(error, bucket);
    } finally {
      this.#client.destroy();
    }
  }
}

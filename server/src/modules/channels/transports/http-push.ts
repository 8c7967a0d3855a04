import { createHmac } from "node:crypto";
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import type { Readable } from "node:stream";
import { type AddressPolicy, FetchRefused, pinnedLookup } from "../../url-ingest/address-policy.js";
import type { HttpSettings } from "../channels.schema.js";
import { DeliveryError, type DeliveryPackage, networkReason, retryAfterMs, type Transport } from "./transport.js";

interface Part {
  kind: "rendition" | "item" | "ping";
  mime: string;
  name: string;
  body: Buffer;
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * HTTP push: each rendition, then the item, POSTed to the channel's URL.
 * Every body is signed with HMAC-SHA256 of the channel's secret
 * (`<signatureHeader>: sha256=<hex>`), every request carries the delivery id
 * (`X-Dams-Delivery`) for de-duplication. The URL's address passes the same
 * policy as the download centre's fetches (no private or local networks
 * unless DAMS_CHANNEL_ALLOW_PRIVATE allows the range), checked on the
 * address the socket connects to (no DNS rebinding); redirects are not followed.
 */
export class HttpPushTransport implements Transport {
  constructor(
    private readonly settings: HttpSettings,
    private readonly credentials: Record<string, string>,
    private readonly policy: AddressPolicy,
  ) {}

  async test(signal: AbortSignal): Promise<string> {
    const body = Buffer.from(JSON.stringify({ type: "ping", at: new Date().toISOString() }));
    const status = await this.#post(
      { kind: "ping", mime: "application/json", name: "ping.json", body },
      "test",
      signal,
    );
    return `${new URL(this.settings.url).host} answered HTTP ${status} to a signed ping`;
  }

  async deliver(delivery: DeliveryPackage, signal: AbortSignal): Promise<void> {
    if (this.settings.sendFiles && delivery.action === "publish") {
      for (const file of delivery.files) {
        const body = await bytesOf(await file.open());
        await this.#post({ kind: "rendition", mime: file.mime, name: file.name, body }, delivery.deliveryId, signal);
      }
    }
    const { item } = delivery;
    await this.#post({ kind: "item", mime: item.mime, name: item.name, body: item.body }, delivery.deliveryId, signal);
  }

  #post(part: Part, deliveryId: string, signal: AbortSignal): Promise<number> {
    const url = new URL(this.settings.url);
    const host = url.hostname.replace(/^\[|\]$/g, "");
    try {
      if (isIP(host)) this.policy.check(host, url.hostname);
    } catch (error) {
      throw this.#refusal(error);
    }
    const headers: Record<string, string> = {
      "content-type": part.mime,
      "content-length": String(part.body.length),
      "user-agent": "dams-channel/1",
      "x-dams-delivery": deliveryId,
      "x-dams-part": part.kind,
      "x-dams-filename": encodeURIComponent(part.name),
    };
    const secret = this.credentials.secret;
    if (secret)
      headers[this.settings.signatureHeader.toLowerCase()] =
        `sha256=${createHmac("sha256", secret).update(part.body).digest("hex")}`;
    if (this.credentials.token) headers.authorization = `Bearer ${this.credentials.token}`;
    const lookup = pinnedLookup((hostname) => this.#resolve(hostname));
    const client = url.protocol === "https:" ? https : http;
    const { timeoutMs } = this.settings;
    return new Promise((resolve, reject) => {
      const request = client.request(url, { method: "POST", lookup, signal, agent: false, headers });
      const timer = setTimeout(
        () => request.destroy(new DeliveryError(`${url.host} did not answer within ${timeoutMs} ms`, true)),
        timeoutMs,
      );
      request.once("response", (response) => {
        clearTimeout(timer);
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => {
          if (chunks.length < 4) chunks.push(chunk);
        });
        response.once("end", () => {
          if (status >= 200 && status < 300) return resolve(status);
          const said = Buffer.concat(chunks).toString("utf8").slice(0, 200).trim();
          const message = `${url.host} answered HTTP ${status}${said ? `: ${said}` : ""}`;
          const retry = status >= 500 || status === 408 || status === 429;
          reject(new DeliveryError(message, retry, retry ? retryAfterMs(response.headers["retry-after"]) : undefined));
        });
        response.once("error", (error) => reject(networkReason(error, url.host)));
      });
      request.once("error", (error) => {
        clearTimeout(timer);
        reject(error instanceof FetchRefused ? this.#refusal(error) : networkReason(error, url.host));
      });
      request.end(part.body);
    });
  }

  #refusal(error: unknown): DeliveryError {
    if (error instanceof FetchRefused) {
      return new DeliveryError(
        `${error.message.replace("the server does not fetch from", "channels do not deliver to")} An administrator may allow the range with DAMS_CHANNEL_ALLOW_PRIVATE.`,
        false,
      );
    }
    return networkReason(error, new URL(this.settings.url).host);
  }

  async #resolve(hostname: string): Promise<string> {
    let addresses: dns.LookupAddress[];
    try {
      addresses = await dns.promises.lookup(hostname, { all: true, verbatim: true });
    } catch (error) {
      throw new DeliveryError(`the host ${hostname} could not be resolved (${(error as Error).message})`, true);
    }
    for (const { address } of addresses) {
      try {
        this.policy.check(address, hostname);
      } catch (error) {
        throw this.#refusal(error);
      }
    }
    if (!addresses[0]) throw new DeliveryError(`the host ${hostname} has no address`, true);
    return addresses[0].address;
  }
}

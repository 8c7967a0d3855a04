import { createHash } from "node:crypto";
import dns from "node:dns";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type AddressPolicy, FetchRefused, pinnedLookup } from "./address-policy.js";

export const MAX_REDIRECTS = 5;

export interface SafeFetcherOptions {
  policy: AddressPolicy;
  maxBytes: number;
  /** Until a hop's response headers arrive. */
  connectTimeoutMs: number;
  /** Longest silence while the body streams. */
  idleTimeoutMs: number;
}

export interface FetchProgress {
  bytes: number;
  /** From Content-Length, or null when the server did not say. */
  total: number | null;
}

export interface FetchedFile {
  /** The URL after redirects. */
  finalUrl: string;
  size: number;
  sha256: string;
  /** The server's Content-Type, for information only: the content decides the type. */
  contentType: string | null;
}

/** A fetch that failed for a reason that may pass (network, 5xx); retried by the job. */
export class FetchFailed extends Error {}

export function formatBytes(bytes: number): string {
  return bytes >= 1024 ** 2 ? `${(bytes / 1024 ** 2).toFixed(1)} MB` : `${bytes} bytes`;
}

/** Only http and https, absolute, without credentials in the URL. */
export function parseFetchUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FetchRefused(`Refused: "${text.slice(0, 200)}" is not an absolute URL.`, "fetch.notUrl", {
      url: text.slice(0, 200),
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new FetchRefused(
      `Refused: ${url.protocol.replace(/:$/, "")}: URLs are not fetched; only http and https.`,
      "fetch.scheme",
      { scheme: url.protocol.replace(/:$/, "") },
    );
  if (url.username || url.password)
    throw new FetchRefused("Refused: URLs with a user name or password are not fetched.", "fetch.credentials");
  return url;
}

/**
 * Fetches URLs for users without letting them reach the server's own network
 * (SSRF): every hop's host is resolved once, every address checked, and the
 * socket connects to the checked address (a custom `lookup`, so a second DNS
 * answer cannot swap it: DNS rebinding). Redirects are followed by hand and
 * checked the same way; the size limit holds on Content-Length and on the
 * bytes streamed.
 */
export class SafeFetcher {
  constructor(private readonly options: SafeFetcherOptions) {}

  /** The size limit of one fetch (and of all an HLS stream's segments together). */
  get maxBytes(): number {
    return this.options.maxBytes;
  }

  /** Resolves `url`'s host and checks every address (for an early answer to the user; the fetch checks again). */
  async checkUrl(text: string): Promise<URL> {
    const url = parseFetchUrl(text);
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host)) this.options.policy.check(host, url.hostname);
    else await this.#resolve(host);
    return url;
  }

  /** Streams the response body of `text` (after redirects) into `file`. */
  async fetchToFile(
    text: string,
    file: string,
    {
      signal,
      onProgress,
      maxBytes = this.options.maxBytes,
    }: {
      signal: AbortSignal;
      onProgress: (progress: FetchProgress) => void;
      /** A smaller limit for this one response (what is left of an HLS stream's budget). */
      maxBytes?: number;
    },
  ): Promise<FetchedFile> {
    let url = parseFetchUrl(text);
    for (let hop = 0; ; hop++) {
      const response = await this.#request(url, signal);
      const status = response.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status)) {
        response.resume();
        const location = response.headers.location;
        if (!location)
          throw new FetchRefused(`Refused: ${url.host} answered ${status} without a Location.`, "fetch.noLocation", {
            host: url.host,
            status,
          });
        if (hop >= MAX_REDIRECTS)
          throw new FetchRefused(`Refused: more than ${MAX_REDIRECTS} redirects.`, "fetch.redirects", {
            max: MAX_REDIRECTS,
          });
        url = parseFetchUrl(new URL(location, url).toString());
        continue;
      }
      if (status < 200 || status > 299) {
        response.resume();
        const message = `${url.host} answered HTTP ${status} ${response.statusMessage ?? ""}`.trim();
        if (status >= 500 || status === 429 || status === 408) throw new FetchFailed(message);
        throw new FetchRefused(`Refused: ${message}.`, "fetch.httpStatus", { host: url.host, status });
      }
      return this.#save(url, response, file, signal, onProgress, maxBytes);
    }
  }

  async #save(
    url: URL,
    response: http.IncomingMessage,
    file: string,
    signal: AbortSignal,
    onProgress: (progress: FetchProgress) => void,
    maxBytes: number,
  ): Promise<FetchedFile> {
    const { idleTimeoutMs } = this.options;
    const declared = Number(response.headers["content-length"]);
    const total = Number.isFinite(declared) && declared >= 0 ? declared : null;
    if (total !== null && total > maxBytes) {
      response.destroy();
      throw new FetchRefused(
        `Refused: the file is ${formatBytes(total)}, over the limit of ${formatBytes(maxBytes)}.`,
        "fetch.tooLarge",
        { size: formatBytes(total), limit: formatBytes(maxBytes) },
      );
    }
    response.setTimeout(idleTimeoutMs, () =>
      response.destroy(new FetchFailed(`${url.host} sent nothing for ${idleTimeoutMs} ms`)),
    );
    const hash = createHash("sha256");
    let bytes = 0;
    // Counts, hashes and cuts off in the stream itself, so a server that sends more than it may stops at the limit.
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        if (bytes > maxBytes) {
          callback(
            new FetchRefused(`Refused: the file is over the limit of ${formatBytes(maxBytes)}.`, "fetch.overLimit", {
              limit: formatBytes(maxBytes),
            }),
          );
          return;
        }
        hash.update(chunk);
        onProgress({ bytes, total });
        callback(null, chunk);
      },
    });
    await pipeline(response, meter, fs.createWriteStream(file), { signal });
    if (total !== null && bytes !== total)
      throw new FetchFailed(`${url.host} sent ${bytes} of the ${total} bytes it announced`);
    return {
      finalUrl: url.toString(),
      size: bytes,
      sha256: hash.digest("hex"),
      contentType: response.headers["content-type"] ?? null,
    };
  }

  /** One hop: connects only to an address the policy allows, and waits at most connectTimeoutMs for the headers. */
  #request(url: URL, signal: AbortSignal): Promise<http.IncomingMessage> {
    const host = url.hostname.replace(/^\[|\]$/g, "");
    // An IP literal never goes through `lookup`: check it here.
    if (isIP(host)) this.options.policy.check(host, url.hostname);
    const lookup = pinnedLookup((hostname) => this.#resolve(hostname));
    const client = url.protocol === "https:" ? https : http;
    return new Promise((resolve, reject) => {
      const request = client.request(url, {
        method: "GET",
        lookup,
        signal,
        agent: false,
        headers: { "user-agent": "dams-url-ingest/1", accept: "*/*", "accept-encoding": "identity" },
      });
      const timer = setTimeout(
        () => request.destroy(new FetchFailed(`${url.host} did not answer within ${this.options.connectTimeoutMs} ms`)),
        this.options.connectTimeoutMs,
      );
      request.once("response", (response) => {
        clearTimeout(timer);
        resolve(response);
      });
      request.once("error", (error) => {
        clearTimeout(timer);
        reject(error instanceof FetchRefused || error instanceof FetchFailed ? error : new FetchFailed(error.message));
      });
      request.end();
    });
  }

  /** The one address to connect to: every address the name has must pass, and the first is used. */
  async #resolve(hostname: string): Promise<string> {
    let addresses: dns.LookupAddress[];
    try {
      addresses = await dns.promises.lookup(hostname, { all: true, verbatim: true });
    } catch (error) {
      throw new FetchRefused(
        `Refused: the host ${hostname} could not be resolved (${(error as Error).message}).`,
        "fetch.unresolvable",
        { host: hostname },
      );
    }
    if (addresses.length === 0)
      throw new FetchRefused(`Refused: the host ${hostname} has no address.`, "fetch.noAddress", { host: hostname });
    for (const { address } of addresses) this.options.policy.check(address, hostname);
    return addresses[0]!.address;
  }
}

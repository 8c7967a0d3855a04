import { BlockList, isIP } from "node:net";
import type { MessageParams } from "../../http/errors.js";

/**
 * A URL, address or content the fetcher will not take, with the reason the
 * user sees: the English text, and a stable code with its values so the web
 * app shows it in the user's language (stored with the fetch row too).
 */
export class FetchRefused extends Error {
  constructor(
    message: string,
    readonly msgCode: string,
    readonly msgParams: MessageParams = {},
  ) {
    super(message);
    this.name = "FetchRefused";
  }
}

/** Ranges that are never the public internet (docs/security.md, "Fetching URLs"). */
/** Network, prefix length, what it is (English) and its key (`fetch.range.<key>` in the web app). */
type Range = [string, number, string, string];

const BLOCKED_V4: Range[] = [
  ["0.0.0.0", 8, "an unspecified address", "unspecified"],
  ["10.0.0.0", 8, "a private address (RFC 1918)", "private"],
  ["100.64.0.0", 10, "a carrier-grade NAT address (RFC 6598)", "cgnat"],
  ["127.0.0.0", 8, "a loopback address", "loopback"],
  ["169.254.0.0", 16, "a link-local address (cloud metadata lives here)", "metadata"],
  ["172.16.0.0", 12, "a private address (RFC 1918)", "private"],
  ["192.0.0.0", 24, "an IETF protocol address", "ietf"],
  ["192.0.2.0", 24, "a documentation address", "documentation"],
  ["192.168.0.0", 16, "a private address (RFC 1918)", "private"],
  ["198.18.0.0", 15, "a benchmarking address", "benchmarking"],
  ["198.51.100.0", 24, "a documentation address", "documentation"],
  ["203.0.113.0", 24, "a documentation address", "documentation"],
  ["224.0.0.0", 4, "a multicast address", "multicast"],
  ["240.0.0.0", 4, "a reserved address", "reserved"],
];

const BLOCKED_V6: Range[] = [
  ["::", 128, "an unspecified address", "unspecified"],
  ["::1", 128, "a loopback address", "loopback"],
  ["fc00::", 7, "a unique-local address", "uniqueLocal"],
  ["fe80::", 10, "a link-local address", "linkLocal"],
  ["fec0::", 10, "a site-local address", "siteLocal"],
  ["ff00::", 8, "a multicast address", "multicast"],
  ["2001:db8::", 32, "a documentation address", "documentation"],
  ["100::", 64, "a discard address", "discard"],
];

/** The 8 16-bit groups of an IPv6 address (any notation, including an embedded IPv4 tail). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split("%")[0]!;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -tail[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(":").map((group) => Number.parseInt(group, 16)) : []);
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const zeros = rest === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<number>(zeros).fill(0), ...right];
}

/** The IPv4 address an IPv6 one carries (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`), or null. */
export function embeddedIPv4(address: string): string | null {
  const groups = ipv6Groups(address);
  const first5Zero = groups.slice(0, 5).every((group) => group === 0);
  const mapped = first5Zero && groups[5] === 0xffff;
  const compatible = first5Zero && groups[5] === 0 && (groups[6] !== 0 || groups[7]! > 1);
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
  if (!mapped && !compatible && !nat64) return null;
  const [high, low] = [groups[6]!, groups[7]!];
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

function blockList(ranges: Range[], type: "ipv4" | "ipv6") {
  return ranges.map(([network, prefix, reason, key]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, type);
    return { list, reason, key };
  });
}

/** Why an address is refused: what it is, its key, and the IPv4 address it carries when written as IPv6. */
export interface AddressRefusal {
  reason: string;
  range: string;
  ipv4?: string;
}

/**
 * Which addresses the server may connect to when it fetches a URL for a user:
 * public unicast only, unless an operator allowed a range (tests, a trusted
 * intranet) with DAMS_FETCH_ALLOW_PRIVATE.
 */
export class AddressPolicy {
  readonly #blockedV4 = blockList(BLOCKED_V4, "ipv4");
  readonly #blockedV6 = blockList(BLOCKED_V6, "ipv6");
  readonly #allowed = new BlockList();

  constructor(allowPrivate: readonly string[] = []) {
    for (const cidr of allowPrivate) {
      const [network, prefix] = cidr.split("/") as [string, string];
      const family = isIP(network);
      if (family === 0) throw new Error(`DAMS_FETCH_ALLOW_PRIVATE: ${cidr} is not an address range`);
      this.#allowed.addSubnet(network, Number(prefix), family === 4 ? "ipv4" : "ipv6");
    }
  }

  /** What `address` (an IP literal) is when the server must not connect to it ("a loopback address"), or null when it may. */
  refusal(address: string): AddressRefusal | null {
    const family = isIP(address);
    if (family === 0) return { reason: "not an IP address", range: "notIp" };
    if (family === 6) {
      const v4 = embeddedIPv4(address);
      if (v4 !== null) {
        const inner = this.refusal(v4);
        return inner === null ? null : { ...inner, reason: `${inner.reason} written as IPv6 (${v4})`, ipv4: v4 };
      }
    }
    const type = family === 4 ? "ipv4" : "ipv6";
    if (this.#allowed.check(address, type)) return null;
    const blocked = (family === 4 ? this.#blockedV4 : this.#blockedV6).find(({ list }) => list.check(address, type));
    return blocked ? { reason: blocked.reason, range: blocked.key } : null;
  }

  /** Throws FetchRefused unless `address`, which `host` named or resolved to, may be connected to. */
  check(address: string, host: string): void {
    const what = this.refusal(address);
    if (what === null) return;
    const named = host.replace(/^\[|\]$/g, "");
    const direct = named === address;
    const subject = direct ? `${address} is` : `${host} resolves to ${address},`;
    // fetch.address, fetch.resolvedAddress, and .ipv6 when an IPv4 address hides in an IPv6 one.
    const code = `fetch.${direct ? "address" : "resolvedAddress"}${what.ipv4 ? ".ipv6" : ""}`;
    throw new FetchRefused(
      `Refused: ${subject} ${what.reason}; the server does not fetch from private or local networks.`,
      code,
      { host, address, range: what.range, ...(what.ipv4 ? { ipv4: what.ipv4 } : {}) },
    );
  }
}

import { BlockList, isIP, type LookupFunction } from "node:net";
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

/** Four bytes as a dotted IPv4 address. */
function dotted(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/**
 * The IPv6 ranges that carry an IPv4 address, and where it sits in the
 * eight groups. A connection to any of them may end at that IPv4 address
 * (the kernel for mapped ones, a translator or relay for the others), so the
 * IPv4 rules decide.
 */
const IPV4_CARRIERS: { name: string; matches(groups: number[]): boolean; ipv4(groups: number[]): string[] }[] = [
  {
    // ::ffff:a.b.c.d (RFC 4291) and the deprecated "compatible" ::a.b.c.d (not :: and ::1).
    name: "mapped or compatible",
    matches: (g) =>
      g.slice(0, 5).every((group) => group === 0) && (g[5] === 0xffff || (g[5] === 0 && (g[6] !== 0 || g[7]! > 1))),
    ipv4: (g) => [dotted(g[6]!, g[7]!)],
  },
  {
    // ::ffff:0:a.b.c.d, IPv4-translated (RFC 2765, SIIT).
    name: "translated",
    matches: (g) => g.slice(0, 4).every((group) => group === 0) && g[4] === 0xffff && g[5] === 0,
    ipv4: (g) => [dotted(g[6]!, g[7]!)],
  },
  {
    // 64:ff9b::/96, the NAT64 well-known prefix (RFC 6052).
    name: "NAT64",
    matches: (g) => g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((group) => group === 0),
    ipv4: (g) => [dotted(g[6]!, g[7]!)],
  },
  {
    // 64:ff9b:1::/48, NAT64 local use (RFC 8215): the operator picks a prefix of /48, /56, /64 or /96
    // inside it and the IPv4 address follows it (RFC 6052 §2.2: bits 64-71 zero, zeros after the address).
    // Every reading with that shape counts; /96 always has it.
    name: "NAT64 local use",
    matches: (g) => g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1,
    ipv4: (g) => {
      const u = g[4]! >> 8;
      const readings: [boolean, string][] = [
        [
          u === 0 && (g[5]! & 0xff) === 0 && g[6] === 0 && g[7] === 0,
          dotted(g[3]!, ((g[4]! & 0xff) << 8) | (g[5]! >> 8)),
        ],
        [u === 0 && g[6] === 0 && g[7] === 0, dotted(((g[3]! & 0xff) << 8) | (g[4]! & 0xff), g[5]!)],
        [
          u === 0 && (g[6]! & 0xff) === 0 && g[7] === 0,
          dotted(((g[4]! & 0xff) << 8) | (g[5]! >> 8), ((g[5]! & 0xff) << 8) | (g[6]! >> 8)),
        ],
        [true, dotted(g[6]!, g[7]!)],
      ];
      return readings.filter(([shaped]) => shaped).map(([, ipv4]) => ipv4);
    },
  },
  {
    // 2002:aabb:ccdd::/48, 6to4 (RFC 3056).
    name: "6to4",
    matches: (g) => g[0] === 0x2002,
    ipv4: (g) => [dotted(g[1]!, g[2]!)],
  },
  {
    // 2001:0:<server>:<flags>:<port>:<client, inverted> (RFC 4380): the Teredo server and the client.
    name: "Teredo",
    matches: (g) => g[0] === 0x2001 && g[1] === 0,
    ipv4: (g) => [dotted(g[2]!, g[3]!), dotted(g[6]! ^ 0xffff, g[7]! ^ 0xffff)],
  },
];

/**
 * The IPv4 addresses an IPv6 one carries (mapped, compatible, translated,
 * NAT64 and its local-use prefix, 6to4, Teredo), or an empty list.
 */
export function embeddedIPv4(address: string): string[] {
  const groups = ipv6Groups(address);
  return IPV4_CARRIERS.find((carrier) => carrier.matches(groups))?.ipv4(groups) ?? [];
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
      // Every IPv4 address it carries must pass; the IPv6 rules then judge the rest.
      for (const v4 of embeddedIPv4(address)) {
        const inner = this.refusal(v4);
        if (inner !== null) return { ...inner, reason: `${inner.reason} written as IPv6 (${v4})`, ipv4: v4 };
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

/**
 * A socket `lookup` that connects only to the address `resolve` gives (after it checked the policy), so the address
 * checked is the address connected to: no second DNS answer in between.
 */
export function pinnedLookup(resolve: (hostname: string) => Promise<string>): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (address) => {
        const family = isIP(address);
        if (options.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}

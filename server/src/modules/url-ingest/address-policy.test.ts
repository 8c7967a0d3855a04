import { describe, expect, it } from "vitest";
import { AddressPolicy, embeddedIPv4 } from "./address-policy.js";

const policy = new AddressPolicy();

describe("IPv4 addresses written as IPv6", () => {
  it.each([
    ["::ffff:127.0.0.1", ["127.0.0.1"]],
    ["::ffff:7f00:1", ["127.0.0.1"]],
    ["::127.0.0.2", ["127.0.0.2"]],
    ["::ffff:0:127.0.0.1", ["127.0.0.1"]],
    ["::ffff:0:a9fe:a9fe", ["169.254.169.254"]],
    ["64:ff9b::10.0.0.1", ["10.0.0.1"]],
    ["64:ff9b::7f00:1", ["127.0.0.1"]],
    // NAT64 local use with a /48 prefix: 127.0.0.1 around the zero octet of bits 64-71.
    ["64:ff9b:1:7f00:0:100::", ["127.0.0.1"]],
    // … with /56 and /64 prefixes.
    ["64:ff9b:1:7f:0:1::", ["127.0.0.1"]],
    ["64:ff9b:1:0:7f:0:100:0", ["127.0.0.1"]],
    ["64:ff9b:1:abcd:ef01:2345:a00:1", ["10.0.0.1"]],
    ["2002:7f00:1::", ["127.0.0.1"]],
    ["2002:a9fe:a9fe:1234::1", ["169.254.169.254"]],
    // Teredo: the server 65.54.227.120, the client 192.168.1.1 stored inverted (3f57:fefe).
    ["2001:0:4136:e378:8000:63bf:3f57:fefe", ["65.54.227.120", "192.168.1.1"]],
  ])("%s carries %j", (address, expected) => {
    expect(embeddedIPv4(address)).toEqual(expect.arrayContaining(expected));
  });

  it.each([
    ["::ffff:0:127.0.0.1", "loopback"],
    ["::ffff:0:7f00:1", "loopback"],
    ["::ffff:0:10.1.2.3", "private"],
    ["64:ff9b::169.254.169.254", "metadata"],
    ["64:ff9b:1:7f00:0:100::", "loopback"],
    ["64:ff9b:1::192.168.0.1", "private"],
    ["2002:c0a8:0101::1", "private"],
    ["2002:7f00:1::1", "loopback"],
    ["2001:0:4136:e378:8000:63bf:3f57:fefe", "private"],
    ["2001:0:7f00:1:0:0:f7f7:f7f7", "loopback"],
  ])("refuses %s by the IPv4 rules (%s)", (address, range) => {
    expect(policy.refusal(address)).toMatchObject({ range, reason: expect.stringMatching(/written as IPv6/) });
  });

  it.each([
    "::ffff:8.8.8.8",
    "::ffff:0:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "64:ff9b:1::8.8.8.8",
    "2002:0808:0808::1",
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
    "2606:4700::1111",
  ])("lets %s through: every IPv4 address it carries is public", (address) => {
    expect(policy.refusal(address)).toBeNull();
  });

  it("throws the refusal with the carried address named", () => {
    expect(() => policy.check("::ffff:0:127.0.0.1", "[::ffff:0:127.0.0.1]")).toThrow(
      expect.objectContaining({
        msgCode: "fetch.address.ipv6",
        msgParams: expect.objectContaining({ ipv4: "127.0.0.1", range: "loopback" }),
      }),
    );
  });
});

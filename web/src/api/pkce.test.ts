import { describe, expect, it } from "vitest";
import { base64Url, codeChallenge, createPkce, randomToken } from "./pkce";

describe("PKCE and state", () => {
  it("computes the S256 challenge of RFC 7636's example verifier", async () => {
    expect(await codeChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });

  it("encodes base64url without padding", () => {
    expect(base64Url(new Uint8Array([251, 255, 191]))).toBe("-_-_");
    expect(base64Url(new Uint8Array([1]))).toBe("AQ");
  });

  it("makes 43-character verifiers from 32 random bytes, never twice the same", () => {
    const tokens = new Set(Array.from({ length: 50 }, () => randomToken()));
    expect(tokens.size).toBe(50);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken(16)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("pairs a verifier with its challenge, method S256", async () => {
    const pair = await createPkce();
    expect(pair.method).toBe("S256");
    expect(pair.challenge).toBe(await codeChallenge(pair.verifier));
    expect(pair.challenge).not.toBe(pair.verifier);
  });
});

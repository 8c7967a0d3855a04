import { describe, expect, it } from "vitest";
import { davAddresses } from "./dav-addresses";

describe("davAddresses", () => {
  it("gives each mount's URL, Windows and Linux address over HTTPS on the default port", () => {
    const [disk, shared, libraries] = davAddresses({ protocol: "https:", hostname: "dams.example.com", port: "" });
    expect(disk).toEqual({
      mount: "disk",
      url: "https://dams.example.com/dav/",
      windows: "\\\\dams.example.com@SSL\\dav",
      linux: "davs://dams.example.com/dav/",
    });
    expect(shared?.url).toBe("https://dams.example.com/dav-shared/");
    expect(libraries?.windows).toBe("\\\\dams.example.com@SSL\\dav-libraries");
  });

  it("keeps a port and plain HTTP", () => {
    const [disk] = davAddresses({ protocol: "http:", hostname: "127.0.0.1", port: "4260" });
    expect(disk).toMatchObject({
      url: "http://127.0.0.1:4260/dav/",
      windows: "\\\\127.0.0.1@4260\\dav",
      linux: "dav://127.0.0.1:4260/dav/",
    });
  });
});

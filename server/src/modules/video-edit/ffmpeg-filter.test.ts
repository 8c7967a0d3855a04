import { describe, expect, it } from "vitest";
import {
  activeBetween,
  escapeGraphText,
  escapeOptionValue,
  ffmpegColour,
  filter,
  formatNumber,
  fpsRational,
  fpsValue,
} from "./ffmpeg-filter.js";
import { parseFilter } from "./filter-graph.test-support.js";

describe("escaping for filter graphs", () => {
  const hostile = [
    "It's 50% a:b\\c",
    "'",
    "\\",
    "a,b;c[d]e",
    "  leading and trailing  ",
    "key=value:other=1",
    "台风 '山竹' 登陆: 100% \\ 中文",
    "line one\nline two",
    "%{localtime} %{pts}",
    "\\'\\'",
  ];

  it.each(hostile)("reads back %j exactly after both levels of unescaping", (text) => {
    const parsed = parseFilter(filter("drawtext", { text, fontsize: 20 }));
    expect(parsed.name).toBe("drawtext");
    expect(parsed.options.text).toBe(text);
    expect(parsed.options.fontsize).toBe("20");
  });

  it("keeps expressions with commas inside one option", () => {
    const parsed = parseFilter(filter("drawtext", { text: "x", enable: activeBetween(1.5, 3) }));
    expect(parsed.options.enable).toBe("gte(t,1.5)*lt(t,3)");
  });

  it("escapes only what each level treats specially", () => {
    expect(escapeOptionValue("a:b'c\\d=e")).toBe("a\\:b\\'c\\\\d\\=e");
    expect(escapeGraphText("a,b;[c]'\\")).toBe("a\\,b\\;\\[c\\]\\'\\\\");
    expect(escapeOptionValue("plain text 中文 %")).toBe("plain text 中文 %");
  });

  it("leaves out undefined options and writes bare filters", () => {
    expect(filter("split")).toBe("split");
    expect(filter("scale", { w: 2, h: undefined })).toBe("scale=w=2");
  });
});

describe("numbers, colours and rates", () => {
  it("writes numbers without exponents", () => {
    expect(formatNumber(3)).toBe("3");
    expect(formatNumber(0.1 + 0.2)).toBe("0.3");
    expect(formatNumber(1e-7)).toBe("0");
    expect(formatNumber(2.5e-5)).toBe("0.000025");
    expect(() => formatNumber(Number.NaN)).toThrow();
  });

  it("turns #RRGGBB(AA) into ffmpeg colours with opacity", () => {
    expect(ffmpegColour("#ff8800")).toBe("0xFF8800@1");
    expect(ffmpegColour("#00000080")).toBe("0x000000@0.502");
    expect(ffmpegColour("#FFFFFF", 0.5)).toBe("0xFFFFFF@0.5");
  });

  it("gives NTSC rates back their 1001 denominators", () => {
    expect(fpsRational(29.97)).toBe("30000/1001");
    expect(fpsRational(23.976)).toBe("24000/1001");
    expect(fpsRational(59.94)).toBe("60000/1001");
    expect(fpsRational(25)).toBe("25");
    expect(fpsRational(12.5)).toBe("12.5");
    expect(fpsValue("30000/1001")).toBeCloseTo(29.97, 2);
    expect(fpsValue("25")).toBe(25);
  });
});

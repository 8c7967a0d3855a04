import { describe, expect, it } from "vitest";
import { touchesIndex } from "./search-index.js";
import { fieldTokens, fts5Query, GAP, indexBody, parseQuery, tokens, tsQuery, tsvectorLiteral } from "./search-text.js";

describe("search text", () => {
  it("splits CJK into characters and words at punctuation, and builds both dialects' queries", () => {
    expect(tokens("台风“山竹”Press-Conference Café IMG_42.jpg")).toEqual([
      "台",
      "风",
      "山",
      "竹",
      "press",
      "conference",
      "cafe",
      "img",
      "42",
      "jpg",
    ]);
    const terms = parseQuery('台风 "press conference" conf* ""');
    expect(fts5Query(terms)).toBe('"台 风" AND "press conference" AND "conf" *');
    expect(tsQuery(terms)).toBe("('台' <-> '风') & ('press' <-> 'conference') & 'conf':*");
    expect(parseQuery(`" ' ) : *`)).toEqual([]);
    // Script changes end a word; breaks (a space or punctuation by Han, punctuation between words, a field) are GAPs.
    expect(tokens("5G手机 iPhone发布会 G20峰会")).toEqual([
      "5g",
      "手",
      "机",
      "iphone",
      "发",
      "布",
      "会",
      "g20",
      "峰",
      "会",
    ]);
    expect(fieldTokens("电视台 风险，舞台。press, conference e-mail")).toEqual([
      "电",
      "视",
      "台",
      GAP,
      "风",
      "险",
      GAP,
      "舞",
      "台",
      GAP,
      "press",
      GAP,
      "conference",
      "e",
      "mail",
    ]);
    expect(indexBody(["平台", "风险"])).toBe(`平 台 ${GAP} 风 险`);
    expect(tsvectorLiteral(`台 风 ${GAP} 台`)).toBe("'台':1,4 '风':2");
    expect(parseQuery('台，风 "press, conference" iPhone发布会*')).toEqual([
      { tokens: ["台"], prefix: false },
      { tokens: ["风"], prefix: false },
      { tokens: ["press"], prefix: false },
      { tokens: ["conference"], prefix: false },
      { tokens: ["iphone", "发", "布", "会"], prefix: false },
    ]);
    expect(touchesIndex(["processing_state", "updated_at"])).toBe(false);
    expect(touchesIndex(["caption", "updated_at"])).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { parsedRowLiteral, rowLiteral } from "./row-literal.js";

describe("parsedRowLiteral", () => {
  const text = (value: string) => `t:${value}`;
  it("makes one object a row, each value through its column's parser, nulls as null", () => {
    const parse = parsedRowLiteral(["a", "b", "c"], [text, Number, text])!;
    expect(parse(["x", "42", null])).toEqual({ a: "t:x", b: 42, c: null });
    expect(Object.keys(parse([null, null, null]))).toEqual(["a", "b", "c"]);
  });

  it("keeps pg's order and its last value for a repeated name", () => {
    const row = parsedRowLiteral(["id", "n", "id"], [text, Number, String])!(["1", "2", "3"]);
    expect(row).toEqual({ id: "3", n: 2 });
    expect(Object.keys(row)).toEqual(["id", "n"]);
  });

  it("writes any name as a key, never as code", () => {
    const names = ['a"b', "c\\d", "e\nf", "}; throw 1; ({", "constructor", "0", "中文"];
    const row = parsedRowLiteral(
      names,
      names.map(() => text),
    )!(names.map((_, index) => String(index)));
    expect(Object.entries(row)).toEqual([
      ["0", "t:5"],
      ...names.filter((name) => name !== "0").map((name) => [name, `t:${names.indexOf(name)}`]),
    ]);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
  });

  it("leaves a __proto__ column to pg", () => {
    expect(parsedRowLiteral(["__proto__"], [text])).toBeUndefined();
  });
});

describe("rowLiteral", () => {
  it("makes the object of an array of values, as they are", () => {
    const make = rowLiteral(["a", "b", "a", "c"])!;
    const row = make([1, null, 3, { x: 1 }]);
    expect(row).toEqual({ a: 3, b: null, c: { x: 1 } });
    expect(Object.keys(row)).toEqual(["a", "b", "c"]);
    expect(rowLiteral(["x", "__proto__"])).toBeUndefined();
  });

  it("keeps each list's own order", () => {
    expect(Object.keys(rowLiteral(["p", "q"])!([1, 2]))).toEqual(["p", "q"]);
    expect(Object.keys(rowLiteral(["q", "p"])!([1, 2]))).toEqual(["q", "p"]);
  });
});

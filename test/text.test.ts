import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { CodePointText, decodeUtf8Strict, findInvalidUtf8, normalizeNewlines, Utf8DecodeError } from "../src/core/text.js";

describe("normalizeNewlines", () => {
  it("strips a BOM and turns CRLF and CR into LF", () => {
    expect(normalizeNewlines("\ufeffa\r\nb\rc\n")).toBe("a\nb\nc\n");
  });
});

describe("decodeUtf8Strict", () => {
  it("reports the byte offset of the first invalid sequence", () => {
    const bytes = Buffer.from([0x61, 0x62, 0xc3, 0x28, 0x63]);
    expect(() => decodeUtf8Strict(bytes)).toThrow(Utf8DecodeError);
    expect(findInvalidUtf8(bytes)).toBe(2);
  });
  it("agrees with the platform decoder on arbitrary bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        let ok = true;
        try {
          new TextDecoder("utf-8", { fatal: true }).decode(bytes);
        } catch {
          ok = false;
        }
        expect(findInvalidUtf8(bytes) === -1).toBe(ok);
      }),
    );
  });
});

describe("CodePointText", () => {
  it("slices by code points across astral characters", () => {
    const t = new CodePointText("a😀b𠀀c");
    expect(t.length).toBe(5);
    expect(t.slice(1, 2)).toBe("😀");
    expect(t.slice(3, 4)).toBe("𠀀");
    expect(t.toCodePoint(t.toUtf16(4))).toBe(4);
  });
  it("matches Array.from slicing for arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.nat(), fc.nat(), (s, a, b) => {
        const cps = Array.from(s);
        const start = Math.min(a, b) % (cps.length + 1);
        const end = Math.min(cps.length, start + (Math.max(a, b) % (cps.length + 1)));
        const t = new CodePointText(s);
        expect(t.length).toBe(cps.length);
        expect(t.slice(start, end)).toBe(cps.slice(start, end).join(""));
      }),
    );
  });
  it("finds 1-based lines", () => {
    const t = new CodePointText("one\ntwo😀\nthree");
    expect(t.lineRange(0, 3)).toEqual({ startLine: 1, endLine: 1 });
    expect(t.lineRange(4, 10)).toEqual({ startLine: 2, endLine: 3 });
  });
});

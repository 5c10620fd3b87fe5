import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { GroundkitError } from "../src/core/errors.js";
import { CodePointText, decodeUtf8Strict, detectUtf16, findInvalidUtf8, normalizeNewlines, Utf8DecodeError } from "../src/core/text.js";
import { decodeTextContent } from "../src/source/text-loader.js";

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

describe("UTF-16 files are refused as a wrong encoding, not as binary", () => {
  const utf16le = (s: string, bom: boolean) => Buffer.concat([Buffer.from(bom ? [0xff, 0xfe] : []), Buffer.from(s, "utf16le")]);
  const utf16be = (s: string, bom: boolean) => utf16le(s, bom).swap16();
  const refusal = (bytes: Uint8Array): GroundkitError => {
    try {
      decodeTextContent(bytes, "notes.md");
    } catch (err) {
      expect(err).toBeInstanceOf(GroundkitError);
      return err as GroundkitError;
    }
    throw new Error("expected a refusal");
  };

  it("names UTF-16LE and UTF-16BE, with or without a byte-order mark", () => {
    for (const [bytes, name] of [
      [utf16le("# Notes\nplain text\n", true), "UTF-16LE"],
      [utf16be("# Notes\nplain text\n", true), "UTF-16BE"],
      [utf16le("# Notes\nplain text\n", false), "UTF-16LE"],
      [utf16be("# Notes\nplain text\n", false), "UTF-16BE"],
      [utf16le("中文", true), "UTF-16LE"],
    ] as const) {
      const err = refusal(bytes);
      expect(err.code).toBe("FILE_NOT_UTF8");
      expect(err.message).toContain(name);
      expect(detectUtf16(bytes)).toBe(name);
    }
  });

  it("keeps calling other NUL-bearing bytes binary, and leaves UTF-8 alone", () => {
    expect(refusal(Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02])).code).toBe("FILE_BINARY");
    // A NUL pair is U+0000, which UTF-16 text never holds.
    expect(refusal(Buffer.concat([utf16le("# Notes\nplain text\n", false), Buffer.alloc(2)])).code).toBe("FILE_BINARY");
    expect(detectUtf16(Buffer.from("\ufeff# UTF-8 with a BOM\n"))).toBeUndefined();
    expect(decodeTextContent(Buffer.from("\ufeff# UTF-8 with a BOM\n"), "a.md")).toBe("# UTF-8 with a BOM\n");
  });
});

import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { readFileSync } from "node:fs";
import { GroundkitError } from "../src/core/errors.js";
import { CodePointText } from "../src/core/text.js";
import type { Extractor } from "../src/extract/extractor.js";
import { PDF_PAGE_SEPARATOR, createPdfExtractor } from "../src/extract/pdf.js";
import { makePdf, pseudoRandomBytes } from "./support/pdf-fixtures.js";

let pdf: Extractor;

beforeAll(async () => {
  pdf = await createPdfExtractor();
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function expectExtractionFailed(bytes: Uint8Array, message: RegExp): Promise<void> {
  const err = await pdf.extract(bytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GroundkitError);
  expect((err as GroundkitError).code).toBe("EXTRACTION_FAILED");
  expect((err as GroundkitError).message).toMatch(message);
}

describe("PDF extractor", () => {
  it("identifies itself by the installed pdfjs-dist version", () => {
    const manifest = JSON.parse(
      readFileSync(new URL("../node_modules/pdfjs-dist/package.json", import.meta.url), "utf8"),
    ) as { version: string };
    expect(pdf.kind).toBe("pdf");
    expect(pdf.identity).toBe(`pdfjs-dist/${manifest.version}`);
  });

  it("accepts a Node Buffer, as read from disk (regression: pdfjs refused Buffers)", async () => {
    const bytes = Buffer.from(await makePdf([["Buffer input works"]]));
    expect((await pdf.extract(bytes)).text).toBe("Buffer input works");
  });

  it("extracts every page in order, records page starts and keeps Latin-1 text", async () => {
    const bytes = await makePdf([
      ["Page one: café déjà vu", "second   line  here"],
      ["Page two — naïve façade", "Ünïcödé ß"],
      ["Third page"],
    ]);
    const { text, pageStarts } = await pdf.extract(bytes);
    expect(text).toBe(
      "Page one: café déjà vu\nsecond line here" +
        PDF_PAGE_SEPARATOR +
        "Page two — naïve façade\nÜnïcödé ß" +
        PDF_PAGE_SEPARATOR +
        "Third page",
    );
    expect(pageStarts).toEqual([0, 41, 76]);
    const cp = new CodePointText(text);
    expect(cp.slice(pageStarts![1]!, pageStarts![2]!)).toBe("Page two — naïve façade\nÜnïcödé ß" + PDF_PAGE_SEPARATOR);
    expect(cp.slice(pageStarts![2]!, cp.length)).toBe("Third page");
  });

  it("counts page starts in code points, not UTF-16 units", async () => {
    // The second line of page one extracts as U+1F600 U+20000: two code points, four UTF-16 units.
    const bytes = await makePdf([["before", "\u{1F600}\u{20000}", "after"], ["page two"]]);
    const { text, pageStarts } = await pdf.extract(bytes);
    expect(text).toBe("before\n\u{1F600}\u{20000}\nafter\n\npage two");
    expect(pageStarts).toEqual([0, 17]);
    expect(new CodePointText(text).slice(17, 25)).toBe("page two");
  });

  it("keeps a place for empty pages", async () => {
    const bytes = await makePdf([["first"], [], ["third"]]);
    const { text, pageStarts } = await pdf.extract(bytes);
    expect(text).toBe("first\n\n\n\nthird");
    expect(pageStarts).toEqual([0, 7, 9]);
  });

  it("is deterministic: the same bytes give the same result every time", async () => {
    const bytes = await makePdf([["alpha beta", "gamma"], ["délta"], ["epsilon"]], { title: "Greek" });
    const first = await pdf.extract(bytes);
    const [second, third] = await Promise.all([pdf.extract(bytes), pdf.extract(bytes)]);
    const fresh = await (await createPdfExtractor()).extract(bytes);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(fresh).toEqual(first);
  });

  it("reads the metadata title, whitespace-collapsed, and omits it when absent", async () => {
    const titled = await pdf.extract(await makePdf([["body"]], { title: "  A   Title  " }));
    expect(titled.title).toBe("A Title");
    const untitled = await pdf.extract(await makePdf([["body"]]));
    expect(untitled.title).toBeUndefined();
  });

  it("leaves the caller's bytes intact", async () => {
    const bytes = await makePdf([["keep me"]]);
    const copy = bytes.slice();
    await pdf.extract(bytes);
    expect(bytes.byteLength).toBe(copy.byteLength);
    expect(Buffer.from(bytes).equals(Buffer.from(copy))).toBe(true);
    expect((await pdf.extract(bytes)).text).toBe("keep me");
  });

  it("refuses random bytes, an empty file and a truncated PDF with EXTRACTION_FAILED", async () => {
    await expectExtractionFailed(pseudoRandomBytes(4096, 7), /PDF/);
    await expectExtractionFailed(new Uint8Array(0), /PDF/);
    const whole = await makePdf([["some text"], ["more text"]]);
    await expectExtractionFailed(whole.slice(0, Math.floor(whole.length / 2)), /PDF/);
    await expectExtractionFailed(new TextEncoder().encode("%PDF-1.7\nnot really a pdf\n%%EOF\n"), /PDF/);
  });

  it("writes nothing to stdout, for good or broken input", async () => {
    const write = vi.spyOn(process.stdout, "write");
    const spies = (["log", "info", "debug"] as const).map((m) => vi.spyOn(console, m));
    await pdf.extract(await makePdf([["quiet"], ["please"]]));
    await pdf.extract(pseudoRandomBytes(512, 3)).catch(() => undefined);
    expect(write).not.toHaveBeenCalled();
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });
});

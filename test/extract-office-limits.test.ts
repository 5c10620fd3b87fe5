/**
 * Hostile ZIP containers (issue 27): a ZIP bomb (high ratio, many entries, a
 * huge declared size, a part that inflates past what it declares), a deeply
 * nested or over-long XML part, an encrypted document (OOXML's compound file,
 * ODF's manifest, the ZIP entry flag, EPUB DRM) and a macro-enabled one are each
 * refused by name in the extraction worker, within the limits; the ingest run
 * goes on with the other files. Each test's timeout is only a hang check.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import type { ExtractOptions } from "../src/extract/extractor.js";
import { getExtractorRegistry } from "../src/extract/registry.js";
import { XML_MAX_NESTING_DEPTH } from "../src/extract/xml-walk.js";
import { ZIP_MAX_ENTRIES, ZIP_MAX_PART_BYTES } from "../src/extract/zip-package.js";
import { grk, tempDir } from "./support/cli.js";
import {
  deeplyNestedDocx,
  docxWithVbaProject,
  drmEpub,
  encryptedOdt,
  encryptedOoxml,
  hugeDeclaredDocx,
  longDocx,
  macroPptm,
  manyEntriesDocx,
  odtWithBasicMacro,
  ratioBombDocx,
  understatedDocx,
  zipEncryptedDocx,
} from "./support/office-bombs.js";
import { epubEntries } from "./support/office-fixtures.js";
import { zipOf } from "./support/zip-writer.js";

const HANG_CHECK_MS = 60_000;

/** The refusal the worker's office extractor ends with (failing when it succeeds). */
async function refusal(bytes: Uint8Array, options: ExtractOptions = {}): Promise<GroundkitError> {
  const office = (await getExtractorRegistry()).get("office")!;
  const outcome = await office.extract(bytes, undefined, { label: "hostile.docx", ...options }).then(
    (result) => new Error(`extracted ${result.text.length} characters instead of refusing`),
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(GroundkitError);
  return outcome as GroundkitError;
}

let work: { dir: string; cleanup: () => void };

beforeAll(() => {
  work = tempDir("grk-office-limits-");
});
afterAll(() => work.cleanup());

describe("hostile office packages", () => {
  it("refuses a ZIP bomb by its compression ratio before inflating it", { timeout: HANG_CHECK_MS }, async () => {
    const err = await refusal(ratioBombDocx(8));
    expect(err.code).toBe("EXTRACTION_LIMIT");
    expect(err.detail).toMatchObject({ limit: "compression-ratio", part: "word/document.xml" });
    expect(err.message).toMatch(/hostile\.docx .*word\/document\.xml inflates \d+ times .*ZIP bomb/);
  });

  it("refuses a package of too many entries before reading any", { timeout: HANG_CHECK_MS }, async () => {
    const err = await refusal(manyEntriesDocx(ZIP_MAX_ENTRIES));
    expect(err.code).toBe("EXTRACTION_LIMIT");
    expect(err.detail).toMatchObject({ limit: "entries" });
  });

  it("refuses a part declaring a huge size, and one inflating past the size it declares", { timeout: HANG_CHECK_MS }, async () => {
    const huge = await refusal(hugeDeclaredDocx(ZIP_MAX_PART_BYTES + 1));
    expect(huge.code).toBe("EXTRACTION_LIMIT");
    expect(huge.detail).toMatchObject({ limit: "part-size", part: "word/document.xml" });

    const lying = await refusal(understatedDocx());
    expect(lying.code).toBe("EXTRACTION_LIMIT");
    expect(lying.detail).toMatchObject({ limit: "part-size", part: "word/document.xml" });
    expect(lying.message).toMatch(/inflates past the size it declares/);
  });

  it("refuses XML nested deeper than the cap, and a part whose text passes the output limit", { timeout: HANG_CHECK_MS }, async () => {
    const deep = await refusal(deeplyNestedDocx(XML_MAX_NESTING_DEPTH + 2));
    expect(deep.code).toBe("EXTRACTION_LIMIT");
    expect(deep.detail).toMatchObject({ limit: "nesting", part: "word/document.xml" });
    // Just under the cap is read.
    const office = (await getExtractorRegistry()).get("office")!;
    expect((await office.extract(deeplyNestedDocx(XML_MAX_NESTING_DEPTH - 10))).text).toBe("deep");

    const long = await refusal(longDocx(2000), { limits: { maxOutputCodePoints: 10_000 } });
    expect(long.code).toBe("EXTRACTION_LIMIT");
    expect(long.detail).toMatchObject({ limit: "output", maxOutputCodePoints: 10_000 });
  });

  it("refuses encrypted documents by name", { timeout: HANG_CHECK_MS }, async () => {
    for (const [bytes, why] of [
      [encryptedOoxml(), /password-protected Office document/],
      [encryptedOdt(), /password-protected \(content\.xml is encrypted\)/],
      [zipEncryptedDocx(), /encrypted \(entry word\/document\.xml\)/],
      [drmEpub(), /encrypted \(META-INF\/encryption\.xml uses http:\/\/www\.w3\.org\/2001\/04\/xmlenc#aes128-cbc\)/],
    ] as const) {
      const err = await refusal(bytes);
      expect(err.code).toBe("DOCUMENT_ENCRYPTED");
      expect(err.message).toMatch(why);
    }
  });

  it("refuses macro-enabled documents by name, whatever their extension says", { timeout: HANG_CHECK_MS }, async () => {
    for (const [bytes, part] of [
      [macroPptm(), "ppt/vbaProject.bin"],
      [docxWithVbaProject(), "word/vbaProject.bin"],
      [odtWithBasicMacro(), "Basic/Standard/Module1.xml"],
    ] as const) {
      const err = await refusal(bytes);
      expect(err.code).toBe("DOCUMENT_HAS_MACROS");
      expect(err.detail).toMatchObject({ part });
    }
  });

  it("never expands a DOCTYPE's entities", { timeout: HANG_CHECK_MS }, async () => {
    const laughs =
      '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>' +
      "<html xmlns='http://www.w3.org/1999/xhtml'><body><p>&lol2;</p></body></html>";
    const office = (await getExtractorRegistry()).get("office")!;
    const entries = epubEntries("Laughs", [{ title: "One", bodyHtml: "" }]);
    entries.find((e) => e.name === "OEBPS/text/ch1.xhtml")!.data = laughs;
    expect((await office.extract(zipOf(entries))).text).toBe("&lol2;");
  });

  it("refuses each hostile file in an ingest run by name and indexes the others", { timeout: HANG_CHECK_MS * 2 }, () => {
    const docs = join(work.dir, "share");
    mkdirSync(docs);
    writeFileSync(join(docs, "bomb.docx"), ratioBombDocx(8));
    writeFileSync(join(docs, "crowded.docx"), manyEntriesDocx(ZIP_MAX_ENTRIES));
    writeFileSync(join(docs, "deep.docx"), deeplyNestedDocx(XML_MAX_NESTING_DEPTH + 2));
    writeFileSync(join(docs, "locked.docx"), encryptedOoxml());
    writeFileSync(join(docs, "macros.pptm"), macroPptm());
    writeFileSync(join(docs, "budget.xlsx"), readFileSync(join(import.meta.dirname, "fixtures", "office", "budget.xlsx")));
    writeFileSync(join(docs, "notes.md"), "# Notes\n\nThe glacier stakes were read in May.\n");
    const res = grk(["ingest", "share", "--json"], { cwd: work.dir });
    const summary = JSON.parse(res.stdout) as { indexed: number; failed: Array<{ source: string; code: string }> };
    expect(res.code).toBe(1);
    expect(summary.indexed).toBe(2);
    const failed = Object.fromEntries(summary.failed.map((f) => [f.source.slice(docs.length + 1), f.code]));
    expect(failed).toEqual({
      "bomb.docx": "EXTRACTION_LIMIT",
      "crowded.docx": "EXTRACTION_LIMIT",
      "deep.docx": "EXTRACTION_LIMIT",
      "locked.docx": "DOCUMENT_ENCRYPTED",
      "macros.pptm": "DOCUMENT_HAS_MACROS",
    });
    const text = grk(["ingest", "share"], { cwd: work.dir });
    expect(text.stdout).toMatch(/failed share\/macros\.pptm: error\[DOCUMENT_HAS_MACROS\] .*contains macros \(ppt\/vbaProject\.bin\)/);
    expect(text.stdout).toMatch(/failed share\/locked\.docx: error\[DOCUMENT_ENCRYPTED\] .*password-protected/);
    expect(text.stdout + text.stderr).not.toMatch(/\n\s+at /);
  });
});

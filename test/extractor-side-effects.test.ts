/**
 * Loading the PDF extractor must not change the process around it:
 * - pdfjs-dist's legacy build replaced native JSON.parse, JSON.stringify and
 *   Array.prototype.push with core-js polyfills for the whole process (every
 *   JSON call and push got slower after the first PDF);
 * - a Markdown-only ingest loaded pdfjs-dist at all.
 * Each check runs in a fresh Node process (the built library in dist/), since
 * a test worker may already have loaded pdfjs.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./support/cli.js";
import { makePdf } from "./support/pdf-fixtures.js";

const DIST = resolve(import.meta.dirname, "../dist");

function runModule(source: string, cwd: string): Record<string, unknown> {
  const res = spawnSync(process.execPath, ["--input-type=module", "-e", source], { cwd, encoding: "utf8" });
  expect(res.stderr).toBe("");
  expect(res.status).toBe(0);
  return JSON.parse(res.stdout) as Record<string, unknown>;
}

let work: { dir: string; cleanup: () => void };

beforeAll(async () => {
  work = tempDir("grk-side-effects-");
  mkdirSync(join(work.dir, "docs"));
  writeFileSync(join(work.dir, "docs", "a.md"), "# Lamps\n\nThe lighthouse keeper trimmed the wick.\n");
  writeFileSync(join(work.dir, "doc.pdf"), await makePdf([["the keeper's log, page one"]]));
});
afterAll(() => work.cleanup());

describe("PDF extractor side effects", () => {
  it("leaves native JSON and Array.prototype.push in place, and still extracts", () => {
    const out = runModule(
      `
      import { readFileSync } from "node:fs";
      const { createPdfExtractor } = await import(${JSON.stringify(pathToFileURL(join(DIST, "extract/pdf.js")).href)});
      const before = { parse: JSON.parse, stringify: JSON.stringify, push: Array.prototype.push };
      const pdf = await createPdfExtractor();
      const { text } = await pdf.extract(new Uint8Array(readFileSync("doc.pdf")));
      process.stdout.write(JSON.stringify({
        text,
        parse: JSON.parse === before.parse,
        stringify: JSON.stringify === before.stringify,
        push: Array.prototype.push === before.push,
      }));
      `,
      work.dir,
    );
    expect(out).toEqual({ text: "the keeper's log, page one", parse: true, stringify: true, push: true });
  });

  it("is not loaded by a Markdown-only ingest", () => {
    const out = runModule(
      `
      const { openCollection } = await import(${JSON.stringify(pathToFileURL(join(DIST, "index.js")).href)});
      const col = await openCollection({ indexDir: "idx", collection: "c", create: true });
      const summary = await col.ingest(["docs"]);
      col.close();
      process.stdout.write(JSON.stringify({ indexed: summary.indexed, pdfjsLoaded: "pdfjsLib" in globalThis }));
      `,
      work.dir,
    );
    expect(out).toEqual({ indexed: 1, pdfjsLoaded: false });
  });
});

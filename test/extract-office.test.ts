/**
 * Office documents and e-books (issue 27): real files written by LibreOffice
 * (test/fixtures/office/, made from test/fixtures/office-sources/) extract to
 * the text and locations their readers expect, deterministically, identically
 * in the extraction worker and in this thread.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cellName, locationLabel, type LocationMap } from "../src/core/locations.js";
import { codePointLength } from "../src/core/text.js";
import type { ExtractedText, Extractor } from "../src/extract/extractor.js";
import { createOfficeExtractor } from "../src/extract/office.js";
import { extractorKindForExtension, getExtractorRegistry } from "../src/extract/registry.js";
import { makeEpub, makePptx } from "./support/office-fixtures.js";

const FIXTURES = join(import.meta.dirname, "fixtures", "office");
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(join(FIXTURES, name)));

let office: Extractor;

beforeAll(async () => {
  office = await createOfficeExtractor();
});

/** The label of the run holding the first occurrence of `needle`. */
function labelOf(out: ExtractedText, needle: string): string | undefined {
  const at = out.text.indexOf(needle);
  expect(at, `"${needle}" in the text`).toBeGreaterThanOrEqual(0);
  const start = codePointLength(out.text.slice(0, at));
  return locationLabel(out.locations!, start, start + codePointLength(needle));
}

describe("office extraction", () => {
  it("routes every office and e-book extension (macro-enabled ones too) to one extractor", () => {
    for (const ext of [".docx", ".DOCX", ".docm", ".pptx", ".pptm", ".xlsx", ".xlsm", ".odt", ".odp", ".ods", ".epub"]) {
      expect(extractorKindForExtension(ext), ext).toBe("office");
    }
    expect(office.identity).toMatch(/^yauzl\/\d+\.\d+\.\d+\+htmlparser2\/\d+\.\d+\.\d+$/);
  });

  it("reads a Word file with its headings, lists and table, each passage located by its heading path", async () => {
    for (const name of ["handbook.docx", "handbook.odt"]) {
      const out = await office.extract(fixture(name), undefined, { label: name });
      expect(out.title, name).toBe("Field handbook");
      expect(out.text, name).toContain("# Field handbook\n\nThis handbook describes");
      expect(out.text, name).toContain("## Glacier observation\n\nAblation stakes");
      expect(out.text, name).toContain("- Check the stake height against the reference mark.\n- Photograph the stake from the north side.");
      expect(out.text, name).toContain("### Equipment\n\nA steam drill");
      expect(out.text, name).toContain("Item | Weight\nSteam drill | 18 kg\nStakes | 9 kg");
      expect(out.text, name).toContain("Café déjà vu 🧊");
      expect(labelOf(out, "ten aluminium stakes"), name).toBe("Field handbook > Glacier observation > Equipment");
      expect(labelOf(out, "Tiltmeters measure"), name).toBe("Field handbook > Volcano monitoring");
    }
  });

  it("reads a deck slide by slide with titles and speaker notes, each passage located at its slide", async () => {
    for (const name of ["deck.pptx", "deck.odp"]) {
      const out = await office.extract(fixture(name), undefined, { label: name });
      expect(out.text, name).toContain("# Quarterly review\n\n- Revenue grew in every region except the north.\n- Hiring is on plan.\n\n## Notes\n\nMention the warehouse fire in Rotterdam.");
      expect(out.text, name).toContain("# Roadmap 🚀");
      // The slide number field of a notes page is page furniture, not text.
      expect(out.text, name).not.toMatch(/^\d$/m);
      expect(labelOf(out, "warehouse fire"), name).toBe("slide 1");
      expect(labelOf(out, "offline sync"), name).toBe("slide 2");
      expect(labelOf(out, "second supplier"), name).toBe("slide 3");
      expect(locationLabel(out.locations!, 0, codePointLength(out.text)), name).toBe("slides 1-3");
    }
  });

  it("reads a spreadsheet sheet by sheet, each cell located at its sheet and cell", async () => {
    for (const name of ["budget.xlsx", "budget.ods"]) {
      const out = await office.extract(fixture(name), undefined, { label: name });
      expect(out.text, name).toBe(
        "# Sheet: Budget\n\nItem | Cost | Note\nSteam drill | 1200 | replaces the broken one\nHelicopter hours | 8400.5\n" +
          "Total approved by the board in March\n\n# Sheet: Q1 Staff\n\nName | Role\nIngrid Ólafsdóttir | Glaciologist 🧊\nTomás Reyes | Volcanologist",
      );
      expect(labelOf(out, "8400.5"), name).toBe("Budget!B3");
      expect(labelOf(out, "Total approved by the board"), name).toBe("Budget!C7");
      expect(labelOf(out, "Tomás Reyes | Volcanologist"), name).toBe("'Q1 Staff'!A3:B3");
      expect(locationLabel(out.locations!, 0, codePointLength(out.text)), name).toBe("Budget!A1:C7, 'Q1 Staff'!A1:B3");
    }
  });

  it("reads an e-book chapter by chapter, titled by its table of contents", async () => {
    const real = await office.extract(fixture("handbook.epub"), undefined, { label: "handbook.epub" });
    expect(real.title).toBe("Field handbook");
    expect(labelOf(real, "Tiltmeters measure")).toBe("chapter 1 (Glacier observation)");

    const book = makeEpub("Two chapters", [
      { title: "The Road", bodyHtml: "<h1 id='start'>The Road</h1><p>The caravan left at dawn &amp; crossed the pass.</p>" },
      { title: "Home", bodyHtml: "<h1>Home</h1><ul><li>Unpack</li><li>Sleep</li></ul>" },
    ]);
    const out = await office.extract(book, undefined, { label: "two.epub" });
    expect(out.title).toBe("Two chapters");
    expect(out.text).toBe("# The Road\n\nThe caravan left at dawn & crossed the pass.\n\n# Home\n\n- Unpack\n- Sleep");
    expect(labelOf(out, "caravan")).toBe("chapter 1 (The Road)");
    expect(labelOf(out, "Unpack")).toBe("chapter 2 (Home)");
    expect(locationLabel(out.locations!, 0, codePointLength(out.text))).toBe("chapters 1-2");
  });

  it("is deterministic, and the extraction worker gives exactly the text and locations of this thread", async () => {
    const isolated = (await getExtractorRegistry()).get("office")!;
    expect(isolated.identity).toBe(office.identity);
    for (const name of ["handbook.docx", "handbook.odt", "deck.pptx", "deck.odp", "budget.xlsx", "budget.ods", "handbook.epub"]) {
      const here = await office.extract(fixture(name), undefined, { label: name });
      expect(await office.extract(fixture(name), undefined, { label: name }), name).toEqual(here);
      expect(await isolated.extract(fixture(name), undefined, { label: name }), name).toEqual(here);
    }
  });

  it("keeps location runs sorted, starting at 0, inside the text", async () => {
    const deck = makePptx([
      { title: "A", bullets: ["one"] },
      { title: "", bullets: ["two"] },
      { title: "C", bullets: ["three"], notes: "n" },
    ]);
    // The slide number is the location's, never the text's.
    expect((await office.extract(deck)).text).toBe("# A\n\n- one\n\n# Untitled slide\n\n- two\n\n# C\n\n- three\n\n## Notes\n\nn");
    for (const bytes of [deck, fixture("budget.xlsx"), fixture("handbook.docx")]) {
      const { text, locations } = await office.extract(bytes);
      const map = locations as LocationMap;
      expect(map.starts[0]).toBe(0);
      for (let i = 1; i < map.starts.length; i++) expect(map.starts[i]!).toBeGreaterThan(map.starts[i - 1]!);
      expect(map.starts.at(-1)!).toBeLessThan(codePointLength(text));
      expect(map.locations.length).toBe(map.starts.length);
    }
  });

  it("names cells in A1 style", () => {
    expect([cellName(1, 1), cellName(7, 26), cellName(7, 27), cellName(9, 16_384)]).toEqual(["A1", "Z7", "AA7", "XFD9"]);
  });
});

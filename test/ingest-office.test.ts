/**
 * Office documents and e-books end to end through the real CLI (issue 27): a
 * folder of real files ingests in one run, each hit's citation carries where the
 * passage sits (slide, sheet cells, chapter, heading path) in JSON and in the
 * text output, and verifies; a citation naming another extractor identity is
 * unresolvable naming both; an edited deck is drifted with where the text now sits.
 */
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getExtractorRegistry } from "../src/extract/registry.js";
import { grk, tempDir } from "./support/cli.js";
import { makePptx, type SlideSpec } from "./support/office-fixtures.js";

interface Hit {
  text: string;
  citation: Record<string, unknown> & { source: string; extractor: string | null; location?: string | null };
  verification?: { verdict: string; detail: string };
}

// Each slide is longer than the chunk size of these tests (200), so chunks do not cross slides.
const SLIDES: SlideSpec[] = [
  {
    title: "Kickoff",
    bullets: [
      "The lighthouse survey starts in April with a walk along the northern cliffs.",
      "Volunteers meet at the visitor centre and collect binoculars and tally sheets.",
      "Weather permitting, the first count of the colony happens on the second day.",
    ],
  },
  {
    title: "Budget",
    bullets: [
      "Cormorant counts need two extra boats for the outer skerries this season.",
      "Fuel for the boats is the largest single cost after the accommodation.",
      "The trust has promised to match any donation made before the end of May.",
    ],
    notes: "Ask the harbour master about moorings.",
  },
];

/** A hang check only: each search or verify below runs the real CLI, seconds each on a loaded machine. */
const HANG_CHECK_MS = 180_000;

let work: { dir: string; cleanup: () => void };
let docs: string;

function search(query: string, extra: string[] = []): Hit[] {
  const res = grk(["search", query, "--json", ...extra], { cwd: work.dir });
  expect(res.code, res.stderr).toBe(0);
  return (JSON.parse(res.stdout) as { results: Hit[] }).results;
}

beforeAll(() => {
  work = tempDir("grk-office-");
  docs = join(work.dir, "share");
  cpSync(join(import.meta.dirname, "fixtures", "office"), docs, { recursive: true });
  writeFileSync(join(docs, "survey.pptx"), makePptx(SLIDES));
});
afterAll(() => work.cleanup());

describe("office documents end to end", () => {
  it("indexes every office document and e-book of a folder as extracted", { timeout: HANG_CHECK_MS }, async () => {
    const res = grk(["ingest", "share", "--chunk-size", "200", "--chunk-overlap", "0", "--json"], { cwd: work.dir });
    const summary = JSON.parse(res.stdout) as { indexed: number; failed: unknown[]; unsupported: string[] };
    expect(res.code, res.stderr).toBe(0);
    expect(summary.failed).toEqual([]);
    expect(summary.unsupported).toEqual([]);
    expect(summary.indexed).toBe(8);
    const identity = (await getExtractorRegistry()).get("office")!.identity;
    for (const hit of search("glacier stakes survey", ["--top-k", "20"])) {
      if (!/\.md$/.test(hit.citation.source)) expect(hit.citation).toMatchObject({ source_class: "extracted", extractor: identity });
    }
  });

  it("cites the slide, the sheet cells, the chapter and the heading path, and each citation verifies", { timeout: HANG_CHECK_MS }, () => {
    const cases: Array<[string, RegExp, string]> = [
      ["warehouse fire Rotterdam", /deck\.pptx$/, "slide 1"],
      ["harbour master moorings", /survey\.pptx$/, "slide 2"],
      ["helicopter hours", /budget\.xlsx$/, "Budget!A1:C7"],
      ["tiltmeters volcano flank", /handbook\.epub$/, "chapter 1 (Glacier observation)"],
      ["steam drill aluminium stakes GNSS", /handbook\.docx$/, "Field handbook > Glacier observation > Equipment"],
    ];
    for (const [query, source, location] of cases) {
      const hits = search(query, ["--verify", "--top-k", "20"]);
      const hit = hits.find((h) => source.test(h.citation.source));
      expect(hit, `${query}: ${JSON.stringify(hits.map((h) => h.citation.source))}`).toBeDefined();
      expect(hit!.citation.location, query).toBe(location);
      expect(hit!.verification?.verdict, hit!.verification?.detail).toBe("verified");
    }
    const text = grk(["search", "harbour master moorings"], { cwd: work.dir });
    expect(text.stdout).toMatch(/share\/survey\.pptx:\d+-\d+ slide 2 \(lines of extracted text\)/);
  });

  it("verifies every hit of a broad query", { timeout: HANG_CHECK_MS }, () => {
    const hits = search("survey glacier volcano slide sheet revenue boats chapter", ["--verify", "--top-k", "50"]);
    expect(hits.length).toBeGreaterThan(10);
    for (const hit of hits) expect(hit.verification?.verdict, `${hit.citation.source}: ${hit.verification?.detail}`).toBe("verified");
  });

  it("is unresolvable naming both identities when the recorded extractor is not the active one", { timeout: HANG_CHECK_MS }, async () => {
    const [hit] = search("cormorant counts boats");
    const tampered = { ...hit!.citation, extractor: "yauzl/0.0.1+htmlparser2/0.0.1" };
    const v = JSON.parse(grk(["verify", "-", "--json"], { cwd: work.dir, input: JSON.stringify(tampered) }).stdout) as { verdict: string; detail: string };
    expect(v.verdict).toBe("unresolvable");
    expect(v.detail).toContain("yauzl/0.0.1+htmlparser2/0.0.1");
    expect(v.detail).toContain((await getExtractorRegistry()).get("office")!.identity);
  });

  it("reports an edited deck as drifted, saying on which slide the text now sits", { timeout: HANG_CHECK_MS }, () => {
    const [hit] = search("cormorant counts boats");
    expect(hit!.citation.location).toBe("slide 2");
    writeFileSync(join(work.dir, "deck-hit.json"), JSON.stringify(hit));
    // A slide inserted before: the cited text moves to slide 3.
    writeFileSync(join(docs, "survey.pptx"), makePptx([{ title: "Agenda", bullets: ["Safety briefing first."] }, ...SLIDES]));
    const drifted = JSON.parse(grk(["verify", "deck-hit.json", "--json"], { cwd: work.dir }).stdout) as {
      verdict: string;
      detail: string;
      relocated?: { start_offset: number };
    };
    expect(drifted.verdict).toBe("drifted");
    expect(drifted.relocated).toBeDefined();
    expect(drifted.detail).toMatch(/now sits at code points \d+-\d+ \(lines \d+-\d+\), at slides? 3/);
  });
});

/**
 * The matched passage of a hit: the window of its chunk with the most distinct
 * query terms, marked with the BM25 analyzer's own terms (stems included), in
 * code-point offsets of the document; the chunk start, said so, when the chunk
 * holds no query term. And the analyzer's offsets behind it: the same terms as
 * the index, each pointing at the characters it came from.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeForIndex, analyzeWithOffsets } from "../src/analysis/analyzer.js";
import { markedPassage } from "../src/cli/format.js";
import { CodePointText } from "../src/core/text.js";
import { bestPassage, queryMarkTerms } from "../src/retrieve/passage.js";

/** The document text a passage's offsets point into: the chunk at `chunkStart` of a document. */
function sliceOf(doc: string, start: number, end: number): string {
  return new CodePointText(doc).slice(start, end);
}

describe("analyzer offsets", () => {
  it("gives the index's terms, each with the span of text it came from", () => {
    const text = "The Runners' RUNNING shoes, Café ﬁles and 漢字";
    const occ = analyzeWithOffsets(text);
    expect(occ.map((o) => o.term)).toEqual(analyzeForIndex(text));
    expect(occ.map((o) => text.slice(o.start, o.end))).toEqual(["Runners", "RUNNING", "shoes", "Café", "ﬁles", "漢", "漢字", "字"]);
  });

  it("makes no term of an identifier part of marks alone, as the part alone makes none (a counterexample of the property below)", () => {
    // U+1DA00 is a nonspacing mark: "𝨀" alone is no word, so "𝨀_0" is one term, not that and its part "𝨀".
    const text = "\u{1DA00}_0";
    expect(analyzeForIndex("\u{1DA00}")).toEqual([]);
    expect(analyzeForIndex(text)).toEqual([text]);
    for (const o of analyzeWithOffsets(text)) expect(analyzeForIndex(text.slice(o.start, o.end))).toContain(o.term);
  });

  it("keeps the index's terms for any text (property)", () => {
    const unit = fc.constantFrom(..."aZé\u0301ßΣς'’.,;İ한\u1100\u1161\u11a8漢字カ ﬁＡ-_1😀\n".split(""), "\u{20000}");
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }).map((a) => a.join("")), (t) => {
        expect(analyzeWithOffsets(t).map((o) => o.term)).toEqual(analyzeForIndex(t));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (t) => {
        const occ = analyzeWithOffsets(t);
        expect(occ.map((o) => o.term)).toEqual(analyzeForIndex(t));
        for (const o of occ) expect(analyzeForIndex(t.slice(o.start, o.end))).toContain(o.term);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("analyzer offsets of wanted terms only", () => {
  // Words from letters Porter's rules turn on (y, s, e, i, ed, ing, ational...), so endings get rewritten.
  const word = fc
    .array(fc.constantFrom(..."aeiouysbtnlcdgrzYES'".split(""), "ing", "ed", "ies", "sses", "ational", "ator", "ize", "ful"), {
      minLength: 1,
      maxLength: 8,
    })
    .map((a) => a.join(""));
  const text = fc.array(fc.oneof(word, fc.constantFrom(" ", ". ", "\n", "é", "漢字", "́")), { maxLength: 30 }).map((a) => a.join(""));

  /**
   * The scan for wanted terms finds what the full scan finds, for a text of `texts`: the wanted terms are some
   * of its own (one in `every`, from a seeded start) and those of a few `others`, which may not occur.
   */
  const findsWhatTheFullScanFinds = (texts: fc.Arbitrary<string>, others: fc.Arbitrary<string>, every: number) =>
    fc.property(texts, fc.array(others, { maxLength: 3 }), fc.integer({ min: 0, max: 1000 }), (t, extra, seed) => {
      const all = analyzeWithOffsets(t);
      const only = new Set([...all.filter((_, i) => (i + seed) % every === 0).map((o) => o.term), ...extra.flatMap((w) => analyzeForIndex(w))]);
      expect(analyzeWithOffsets(t, only)).toEqual(all.filter((o) => only.has(o.term)));
    });

  it("finds exactly the occurrences of the wanted terms (property)", () => {
    fc.assert(findsWhatTheFullScanFinds(text, word, 2), { numRuns: 5000 });
  });

  it("finds the same occurrences in identifiers, joined words, CJK runs and astral text, whatever precedes them (property)", () => {
    // The scan skips words by their first two code units: the parts of identifiers (camel case, `_`, `.`)
    // and of words joined by `'`, marks, CJK runs, surrogate pairs and non-ASCII punctuation must still give
    // exactly the occurrences the unfiltered scan gives.
    const piece = fc.constantFrom(
      ..."aAyYsSeEiI1_.'’,;:- \n\u00a0—“(é\u0301ß漢字カ한".split(""),
      "parse", "Config", "HTML", "Parser", "ies", "ing", "ed", "os.path", "x's", "\u{20000}", "\u{1d400}", "😀", "ﬁ", "Ａ",
    );
    const mixed = fc.array(piece, { maxLength: 40 }).map((a) => a.join(""));
    fc.assert(findsWhatTheFullScanFinds(mixed, mixed, 3), { numRuns: 5000 });
  });

  it("every term starts with the first character of the word it came from (what the skip relies on)", () => {
    fc.assert(
      fc.property(word, (w) => {
        for (const o of analyzeWithOffsets(w)) expect(o.term[0]).toBe(w.slice(o.start, o.end).toLowerCase()[0]);
      }),
      { numRuns: 20000 },
    );
  });

  it("and its second too, but for a one-character term and Porter's y -> i (what the skip relies on)", () => {
    fc.assert(
      fc.property(word, (w) => {
        for (const o of analyzeWithOffsets(w)) {
          if (o.term.length < 2) continue;
          const second = w.slice(o.start, o.end).toLowerCase()[1];
          expect(second === o.term[1] || (second === "y" && o.term[1] === "i")).toBe(true);
        }
      }),
      { numRuns: 20000 },
    );
  });

  it("marks words whose stem changes their second letter or leaves one letter", () => {
    // "eyed" -> "ei", "says" -> "sai", "aed" -> "a", "x's" -> "x".
    const text = "They eyed the says of aed and x's.";
    for (const term of ["ei", "sai", "a", "x"]) {
      const all = analyzeWithOffsets(text).filter((o) => o.term === term);
      expect(all.length).toBeGreaterThan(0);
      expect(analyzeWithOffsets(text, new Set([term]))).toEqual(all);
    }
  });
});

describe("best passage", () => {
  const filler = "Nothing to see in this sentence about other things. ".repeat(12);
  const chunk = `${filler}To restore, stop the service and copy the snapshot back. ${filler}Restoring again later is fine.`;

  it("picks the window with the most distinct query terms and marks their stemmed forms", () => {
    const p = bestPassage(chunk, queryMarkTerms("restoring snapshots"), 0, 120);
    expect(p.basis).toBe("query_terms");
    expect(p.text).toContain("To restore, stop the service and copy the snapshot back.");
    expect(p.text.length).toBeLessThanOrEqual(120);
    expect(p.terms.map((t) => [t.term, chunk.slice(t.start_offset, t.end_offset)])).toEqual([
      ["restor", "restore"],
      ["snapshot", "snapshot"],
    ]);
    // It starts at the sentence, not mid-word.
    expect(p.text.startsWith("To restore")).toBe(true);
  });

  it("begins after the lead-in's last line break or sentence end, else at a word start", () => {
    const tail = " tail".repeat(40);
    const at = (text: string) => bestPassage(text, queryMarkTerms("snapshot"), 0, 60).text;
    expect(at(`${"Intro words here. ".repeat(3)}A line\nthen the snapshot sits here${tail}`)).toMatch(/^then the snapshot/);
    expect(at(`xxxxx one. two!\nthree? four the snapshot${tail}`)).toMatch(/^four the snapshot/);
    expect(at(`alpha beta gamma delta epsilon the snapshot${tail}`)).toMatch(/^epsilon the snapshot/);
  });

  it("points into the document in code points, astral characters before it included", () => {
    const lead = "😀\u{20000} intro line\n";
    const doc = lead + chunk;
    const chunkStart = new CodePointText(lead).length;
    const p = bestPassage(chunk, queryMarkTerms("snapshot"), chunkStart, 80);
    expect(sliceOf(doc, p.start_offset, p.end_offset)).toBe(p.text);
    for (const t of p.terms) expect(sliceOf(doc, t.start_offset, t.end_offset).toLowerCase()).toBe("snapshot");
    const astral = `${"😀 ".repeat(30)}the snapshot 😀 here`;
    const q = bestPassage(astral, queryMarkTerms("snapshot"), 5, 20);
    expect(sliceOf("12345" + astral, q.start_offset, q.end_offset)).toBe(q.text);
    expect(sliceOf("12345" + astral, q.terms[0]!.start_offset, q.terms[0]!.end_offset)).toBe("snapshot");
  });

  it("says when the chunk holds no query term and gives its start (a dense-only hit)", () => {
    const p = bestPassage(chunk, queryMarkTerms("axolotl"), 100, 60);
    expect(p).toMatchObject({ basis: "chunk_start", terms: [], start_offset: 100 });
    expect(chunk.startsWith(p.text)).toBe(true);
    expect(p.text.length).toBeLessThanOrEqual(60);
    expect(bestPassage(chunk, queryMarkTerms("the of"), 0, 60).basis).toBe("chunk_start");
  });

  it("is a whole, short chunk when the chunk fits", () => {
    const p = bestPassage("  Run npm ci to install.  ", queryMarkTerms("install"), 0);
    expect(p.text).toBe("Run npm ci to install.");
    expect(p.start_offset).toBe(2);
  });

  it("lies inside the chunk with every term inside it, for any text and window (property)", () => {
    const word = fc.constantFrom("restore", "snapshot", "the", "data", "😀", "漢字", "Run", "\n", ". ", "café");
    fc.assert(
      fc.property(fc.array(word, { maxLength: 80 }).map((w) => w.join(" ")), fc.integer({ min: 1, max: 300 }), (text, max) => {
        const p = bestPassage(text, queryMarkTerms("restore snapshot 漢字"), 0, max);
        const cp = new CodePointText(text);
        expect(p.start_offset).toBeGreaterThanOrEqual(0);
        expect(p.end_offset).toBeLessThanOrEqual(cp.length);
        expect(cp.slice(p.start_offset, p.end_offset)).toBe(p.text);
        for (const t of p.terms) {
          expect(t.start_offset).toBeGreaterThanOrEqual(p.start_offset);
          expect(t.end_offset).toBeLessThanOrEqual(p.end_offset);
        }
        if (analyzeForIndex(text).some((t) => t === "restor" || t === "snapshot" || t === "漢字")) {
          expect(p.terms.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe("marked passages in the CLI", () => {
  const p = bestPassage("Copy the snapshot back,\n then restore it.", queryMarkTerms("restore snapshot"), 0);

  it("brackets terms when the output is not a terminal, on one line", () => {
    expect(markedPassage(p, "brackets")).toBe("Copy the [snapshot] back, then [restore] it.");
  });

  it("bolds and underlines terms on a terminal", () => {
    expect(markedPassage(p, "ansi")).toBe("Copy the \x1b[1;4msnapshot\x1b[0m back, then \x1b[1;4mrestore\x1b[0m it.");
  });

  it("merges overlapping CJK bigrams into one mark", () => {
    const cjk = bestPassage("这是漢字典的例子", queryMarkTerms("漢字 字典"), 0);
    expect(markedPassage(cjk, "brackets")).toBe("这是[漢字典]的例子");
  });
});

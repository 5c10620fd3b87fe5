/**
 * The reliability tools (fuzz/) as part of `npm test`: the oracle's own rules,
 * a bounded citation-integrity fuzz, a bounded crash torture and a short
 * concurrency soak. The full-size runs (10,000 cases, 100 kills, 60 s) are
 * `npm run fuzz` / `torture` / `soak`; see docs/reliability.md.
 */
import { describe, expect, it } from "vitest";
import type { Citation, Verification } from "../src/core/contracts.js";
import { cpLength, cpSlice } from "../fuzz/codepoints.js";
import { generateCase } from "../fuzz/case-spec.js";
import { generateDoc, normalizeTextModel, pdfModelFromContent, pdfContent, htmlModelFromContent, htmlContent, type HtmlModel, type PdfModel } from "../fuzz/corpus-gen.js";
import { Rng } from "../fuzz/rng.js";
import { rawIndexMap } from "../fuzz/edits.js";
import { runFuzz, type FuzzReport } from "../fuzz/fuzz.js";
import { MUTATION_KINDS } from "../fuzz/mutations.js";
import { expectVerdict, judge, linesMoved, sha256Hex, snapshotAvailability, textAvailability, type CitedSpan } from "../fuzz/oracle.js";
import { runSoak, type SoakReport } from "../fuzz/soak.js";
import { runTorture, type TortureReport } from "../fuzz/torture.js";
import { renderReliabilityDoc } from "../fuzz/write-reliability-doc.js";

const content = "alpha 😀 beta\ngamma 𠀀 delta\n";

function cited(start: number, end: number, text = cpSlice(content, start, end)): CitedSpan {
  const citation: Citation = {
    document_id: "d",
    chunk_id: "c",
    source: "/base/x.md",
    source_class: "text",
    extractor: null,
    start_offset: start,
    end_offset: end,
    start_line: 1,
    end_line: 1,
    text_hash: sha256Hex(text),
  };
  return { citation, text, doc: 0, primary: true };
}

describe("the oracle", () => {
  it("expects verified only where the code points still match, with astral characters counted once", () => {
    const span = cited(6, 12); // "😀 beta"
    expect(span.text).toBe("😀 beta");
    expect(expectVerdict(span, { readable: true, content }, true, content).verdict).toBe("verified");
    const moved = "x" + content;
    expect(expectVerdict(span, { readable: true, content: moved }, true, content)).toMatchObject({
      verdict: "drifted",
      relocated: { start_offset: 7, end_offset: 13 },
    });
    expect(expectVerdict(span, { readable: true, content: moved }, false, content)).toMatchObject({ verdict: "drifted", relocated: null });
    expect(expectVerdict(span, { readable: false, reason: "escapes" }, true, content)).toEqual({ verdict: "unresolvable", reason: "escapes" });
  });

  it("lets an HTML citation whose file lines moved be drifted for it, never turns drifted into verified", () => {
    const enc = (t: string): Uint8Array => new TextEncoder().encode(t);
    expect(linesMoved(enc("<p>a</p>\n<p>b</p>"), enc("<p>c</p>\n<p>d</p>"))).toBe(false);
    expect(linesMoved(enc("<p>a</p>\n<p>b</p>"), enc("<p>a</p> <p>b</p>"))).toBe(true);
    expect(linesMoved(enc("<p>a</p> <p>b</p>"), enc("<p>a</p>\n<p>b</p>"))).toBe(true);
    expect(linesMoved(enc("a\r\nb"), enc("a\r\nb"))).toBe(false);
    const span = cited(6, 12);
    const moved = { ...expectVerdict(span, { readable: true, content }, true, content), orDrifted: true };
    const linesOnly: Verification = { verdict: "drifted", detail: "the text is unchanged at code points 6-12, but now on file lines 3-3 (cited 1-1)." };
    expect(judge(moved, linesOnly, span)).toEqual([]);
    expect(judge(moved, { verdict: "verified", detail: "the text at code points 6-12 matches the cited hash." }, span)).toEqual([]);
    const otherDrift: Verification = { verdict: "drifted", detail: "the text at code points 6-12 differs from what was cited." };
    expect(judge(moved, otherDrift, span).map((f) => f.kind)).toEqual(["detail-mismatch"]);
    const drifted = { ...expectVerdict(span, { readable: true, content: "x" + content }, true, content), orDrifted: true };
    expect(judge(drifted, { verdict: "verified", detail: "matches" }, span).map((f) => f.kind)).toEqual(["false-verified"]);
  });

  it("locates moved text only where its surroundings tell it is the cited copy (ADR 0037)", () => {
    const a = "The first paragraph of the guide opens with these words: ";
    const b = " and then it ends, as first paragraphs do.\n\n";
    const c = "Much later a second paragraph, about something else: ";
    const d = " which closes the whole guide for good.\n";
    const asCited = `${a}ab${b}${c}ab${d}`;
    const second = cpLength(`${a}ab${b}${c}`);
    const span: CitedSpan = { ...cited(0, 0), text: "ab", citation: { ...cited(0, 0).citation, start_offset: second, end_offset: second + 2, text_hash: sha256Hex("ab") } };
    const at = (now: string): unknown => expectVerdict(span, { readable: true, content: now }, true, asCited).relocated;
    // Unique then and now: there, whatever its surroundings.
    const unique = cited(6, 12);
    expect(expectVerdict(unique, { readable: true, content: "xyz " + content }, true, content).relocated).toEqual({ start_offset: 10, end_offset: 16 });
    // Both copies still there, shifted: the one around which the cited copy's text still is.
    expect(at(`X${asCited}`)).toEqual({ start_offset: second + 1, end_offset: second + 3 });
    // The cited copy deleted, the other kept: that one is the other copy, never a relocation.
    expect(at(`${a}ab${b}`)).toBeNull();
    // The cited copy kept with its surroundings, the other deleted: there.
    expect(at(`${c}ab${d}`)).toEqual({ start_offset: cpLength(c), end_offset: cpLength(c) + 2 });
    // Two copies in the same surroundings as the cited one: nothing tells them apart.
    expect(at(`${b}${c}ab${d}${b}${c}ab${d}`)).toBeNull();
  });

  it("fails a false verified, a drifted where the source could not be read, a missing detail, a wrong location", () => {
    const span = cited(6, 12);
    const unreadable = expectVerdict(span, { readable: false, reason: "permission" }, true, content);
    const verified: Verification = { verdict: "verified", detail: "the text at code points 6-12 matches the cited hash." };
    expect(judge(unreadable, verified, span).map((f) => f.kind)).toEqual(["false-verified"]);
    const drifted: Verification = { verdict: "drifted", detail: "the text at code points 6-12 differs from what was cited." };
    expect(judge(unreadable, drifted, span).map((f) => f.kind)).toEqual(["drifted-unreadable"]);
    const ok = expectVerdict(span, { readable: true, content }, true, content);
    expect(judge(ok, { verdict: "verified", detail: "" }, span).map((f) => f.kind)).toContain("missing-detail");
    const moved = expectVerdict(span, { readable: true, content: "x" + content }, true, content);
    const wrong: Verification = { ...drifted, relocated: { start_offset: 8, end_offset: 14 } };
    expect(judge(moved, wrong, span).map((f) => f.kind)).toEqual(["relocation-mismatch"]);
    const right: Verification = {
      verdict: "drifted",
      detail: "the text at code points 6-12 differs from what was cited. The cited text now sits at code points 7-13 (lines 1-1).",
      relocated: { start_offset: 7, end_offset: 13 },
    };
    expect(judge(moved, right, span)).toEqual([]);
    const reasonless: Verification = { verdict: "unresolvable", detail: "something went wrong" };
    expect(judge(unreadable, reasonless, span).map((f) => f.kind)).toEqual(["detail-mismatch"]);
  });

  it("models the text loader and the snapshot store from the bytes alone", () => {
    expect(textAvailability(Buffer.from("\ufeffa\r\nb\rc\n"))).toEqual({ readable: true, content: "a\nb\nc\n" });
    expect(textAvailability(Buffer.from([0x61, 0xff]))).toEqual({ readable: false, reason: "not-utf8" });
    expect(textAvailability(Buffer.from([0x61, 0x00, 0x62]))).toEqual({ readable: false, reason: "binary" });
    expect(textAvailability(Buffer.from("\ufeffa\n", "utf16le"))).toEqual({ readable: false, reason: "not-utf8" });
    expect(snapshotAvailability(Buffer.from("\ufeffa\r\n"))).toEqual({ readable: true, content: "\ufeffa\r\n" });
    expect(snapshotAvailability(Buffer.from([0xed, 0xa0, 0x80]))).toEqual({ readable: false, reason: "snapshot-not-utf8" });
    expect(normalizeTextModel("x\r\n\r\ny")).toBe("x\n\ny");
    const raw = "\ufeffa😀\r\nb";
    expect(rawIndexMap(raw)).toEqual([1, 2, 4, 6, 7]);
  });

  it("round-trips extracted-document models through their content", () => {
    const html: HtmlModel = { type: "html", blocks: [{ level: 2, text: "Title" }, { level: 0, text: "one two" }], wsSeed: 1, crlf: false };
    expect(htmlContent(htmlModelFromContent("## Title\n\none   two\n\n\n", html))).toBe("## Title\n\none two");
    const pdf = pdfModelFromContent("line one  \nline 😀 two\n\n😀𠀀\n\n\n");
    expect(pdfContent(pdf)).toBe("line one\nline two\n\n😀𠀀");
  });

  it("generates the same case from the same seed, and every kind in turn", () => {
    expect(generateCase(9, 41)).toEqual(generateCase(9, 41));
    expect(new Set(Array.from({ length: MUTATION_KINDS.length }, (_, i) => generateCase(9, i).kind)).size).toBe(MUTATION_KINDS.length);
  });

  it("puts the search marker in every generated PDF, even when its first line is a glyph line (seed 4242, case 109)", () => {
    const pdfsWithout = (seed: number, cases: number) =>
      Array.from({ length: cases }, (_, i) => generateCase(seed, i))
        .flatMap((c) => c.docs)
        .filter((d) => d.kind === "pdf" && !pdfContent(d.model as PdfModel).includes(d.marker));
    expect(pdfsWithout(4242, 110)).toEqual([]);
    for (let i = 0; i < 2000; i++) {
      const spec = generateDoc(new Rng(i), "pdf", "p.pdf", i);
      expect(pdfContent(spec.model as PdfModel), `seed ${i}`).toContain(spec.marker);
    }
  });
});

describe("bounded reliability runs", () => {
  const reports: { fuzz?: FuzzReport; torture?: TortureReport; soak?: SoakReport } = {};

  it("fuzz: 340 cases over every source class and mutation kind, zero failures", async () => {
    const report = await runFuzz({ cases: 340, seed: 20_240_601, shrink: true, hangTimeoutMs: 20_000 });
    reports.fuzz = report;
    expect(report.failures.cases, JSON.stringify(report.failures.cases.slice(0, 3), null, 1)).toEqual([]);
    expect(report.ok).toBe(true);
    for (const kind of MUTATION_KINDS) expect(report.by_kind[kind]!.citations, kind).toBeGreaterThan(0);
    for (const cls of ["text", "extracted", "snapshot"]) expect(report.by_class[cls]!.citations, cls).toBeGreaterThan(0);
    expect(report.verdicts.verified).toBeGreaterThan(0);
    expect(report.verdicts.drifted).toBeGreaterThan(0);
    expect(report.verdicts.unresolvable).toBeGreaterThan(0);
    expect(report.relocations.located).toBeGreaterThan(0);
    // Read permission must have been exercised for real (in-process as a user, as `nobody` under root).
    expect(report.permission.mode).not.toBe("skip");
    expect(report.by_kind.unreadable!.verdicts.unresolvable).toBeGreaterThan(0);
  }, 240_000);

  it("torture: 10 SIGKILLs of the real CLI ingest, every state old-or-new, every next ingest converging", async () => {
    const report = await runTorture({ kills: 10, seed: 7, corpus: { small: 30, big: 1, bigBytes: 300_000 } });
    reports.torture = report;
    expect(report.violations).toEqual([]);
    expect(report.kills).toBe(10);
    expect(report.kills_survived).toBe(10);
    expect(report.converged).toBe(report.recoveries);
    // The kills really landed mid-run: some left documents at both versions.
    expect(report.partial_states).toBeGreaterThan(0);
    expect(report.ok).toBe(true);
  }, 240_000);

  it("soak: 16 clients searching through grk serve during an ingest and a re-ingest, zero errors", async () => {
    const report = await runSoak({ seconds: 5, clients: 16, seed: 3, corpus: { small: 30, big: 1, bigBytes: 100_000 } });
    reports.soak = report;
    expect(report.error_samples).toEqual([]);
    expect(report.errors).toBe(0);
    expect(report.database_locked).toBe(0);
    expect(report.inconsistent).toBe(0);
    expect(report.ingests.cli + report.ingests.rest).toBeGreaterThanOrEqual(2);
    expect(report.requests_during_ingest).toBeGreaterThan(0);
    expect(report.hits_checked).toBeGreaterThan(0);
    expect(report.ok).toBe(true);
  }, 240_000);

  it("renders the reliability page from the runs' reports, figures included", () => {
    const { fuzz, torture, soak } = reports;
    if (!fuzz || !torture || !soak) throw new Error("the bounded runs above did not all complete");
    const page = renderReliabilityDoc(
      [{ ...fuzz, command: "npm run fuzz -- --cases 340" }],
      [{ ...torture, command: "npm run torture -- --kills 10" }],
      { ...soak, command: "npm run soak -- --seconds 5" },
      ["--fuzz", "f.json", "--torture", "t.json", "--soak", "s.json"],
    );
    expect(page).toContain("npm run fuzz -- --cases 340");
    expect(page).toContain(`**340 cases, ${fuzz.citations.toLocaleString("en-US")} citations verified, 0 false \`verified\``);
    expect(page).toContain(`${torture.kills} kills, ${torture.kills_survived} survived, 0 violations`);
    expect(page).toContain(`${soak.requests.toLocaleString("en-US")} searches`);
    for (const kind of MUTATION_KINDS) expect(page).toContain(`\`${kind}\``);
  });
});

/**
 * Integrity of the golden corpus (evals/corpus/) and its judgments (evals/judgments.jsonl).
 * The floors are literal numbers on purpose: this test is the authority, not a constant elsewhere.
 *
 * Token overlap (the paraphrase rule) is defined here:
 *   tokens(s)       = the set of lowercase runs of letters and digits in s, /[\p{L}\p{N}]+/gu —
 *                     no stemming and NO stopword removal ("the", "a", "how" all count)
 *   overlap(q, g)   = |tokens(q) ∩ tokens(g)| / |tokens(q)|
 * Every answerable judgment's query must have overlap <= 0.7 with each of its gold quotes, so a
 * query paraphrases its answer instead of quoting it (otherwise lexical match does the work).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { CodePointText, decodeUtf8Strict, normalizeNewlines } from "../src/core/text.js";
import { goldenContent } from "../src/eval/harness.js";
import { loadJudgments, type ResolvedJudgment } from "../src/eval/judgments.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = path.join(ROOT, "evals", "corpus");
const JUDGMENTS = path.join(ROOT, "evals", "judgments.jsonl");
const DOC_EXTENSIONS = [".md", ".markdown", ".txt", ".pdf", ".html", ".htm"];
const TEXT_EXTENSIONS = [".md", ".markdown", ".txt"];
/** Distinctive prompt-injection phrases; an adversarial judgment's document must contain one. */
const INJECTION_MARKERS = [
  "ignore previous instructions",
  "ignore all previous instructions",
  "disregard the above",
  "you are now in developer mode",
  "new instructions:",
  "system prompt:",
];

function tokens(s: string): Set<string> {
  return new Set(s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

function overlap(query: string, quote: string): number {
  const q = tokens(query);
  const g = tokens(quote);
  let n = 0;
  for (const t of q) if (g.has(t)) n++;
  return q.size === 0 ? 0 : n / q.size;
}

function listFiles(dir: string, rel = ""): string[] {
  return readdirSync(path.join(dir, rel)).flatMap((name) => {
    const r = rel ? `${rel}/${name}` : name;
    return statSync(path.join(dir, r)).isDirectory() ? listFiles(dir, r) : [r];
  });
}

const files = listFiles(CORPUS).sort();
/** Every document's content as the index stores it (PDF and HTML through their extractors). */
const content = new Map<string, string>();
const rawLines = readFileSync(JUDGMENTS, "utf8").split("\n").filter((l) => l.trim() !== "");
const raw = rawLines.map((l) => JSON.parse(l) as { query_id: string; query: string; category: string; gold: { doc: string; quote: string }[] });
let judgments: ResolvedJudgment[];

beforeAll(async () => {
  for (const f of files) {
    content.set(
      f,
      TEXT_EXTENSIONS.includes(path.extname(f))
        ? normalizeNewlines(decodeUtf8Strict(readFileSync(path.join(CORPUS, f))))
        : await goldenContent(path.join(CORPUS, f)),
    );
  }
  judgments = await loadJudgments(JUDGMENTS, CORPUS, { contentOf: goldenContent });
});

describe("golden corpus", () => {
  it("holds at least 12 documents and nothing but documents", () => {
    expect(files.length).toBeGreaterThanOrEqual(12);
    for (const f of files) {
      expect(DOC_EXTENSIONS, f).toContain(path.extname(f).toLowerCase());
      expect(path.basename(f).toLowerCase(), f).not.toMatch(/^(readme|notes|license|changelog)\b/);
    }
  });

  it("includes PDF and HTML documents that judgments point at", () => {
    for (const ext of [".pdf", ".html"]) {
      const docs = files.filter((f) => path.extname(f) === ext);
      expect(docs.length, ext).toBeGreaterThanOrEqual(1);
      const judged = raw.filter((j) => j.gold.some((g) => docs.includes(g.doc)));
      expect(judged.length, ext).toBeGreaterThanOrEqual(3);
    }
  });

  it("has documents of 400 to 1500 words", () => {
    for (const [f, text] of content) {
      const words = text.split(/\s+/).filter(Boolean).length;
      expect(words, f).toBeGreaterThanOrEqual(400);
      expect(words, f).toBeLessThanOrEqual(1500);
    }
  });

  it("shares vocabulary across documents so ranking matters", () => {
    const df = new Map<string, number>();
    for (const text of content.values()) for (const t of tokens(text)) df.set(t, (df.get(t) ?? 0) + 1);
    // At least 150 distinct words of 5+ letters occur in 4 or more documents (measured: 221).
    const shared = [...df].filter(([t, n]) => t.length >= 5 && n >= 4).length;
    expect(shared).toBeGreaterThanOrEqual(150);
    // Every answerable query has a word (4+ letters) found in at least 3 documents: no query is
    // answered by a word unique to its document.
    for (const j of raw.filter((x) => x.gold.length > 0)) {
      const best = Math.max(0, ...[...tokens(j.query)].filter((t) => t.length >= 4).map((t) => df.get(t) ?? 0));
      expect(best, j.query_id).toBeGreaterThanOrEqual(3);
    }
  });
});

describe("golden judgments", () => {
  it("has at least 60 judgments with the category floors", () => {
    expect(raw.length).toBeGreaterThanOrEqual(60);
    const count = (c: string) => raw.filter((j) => j.category === c).length;
    expect(count("normal")).toBeGreaterThanOrEqual(30);
    expect(count("ambiguous")).toBeGreaterThanOrEqual(10);
    expect(count("no_answer")).toBeGreaterThanOrEqual(10);
    expect(count("adversarial")).toBeGreaterThanOrEqual(10);
    expect(raw.every((j) => ["normal", "ambiguous", "no_answer", "adversarial"].includes(j.category))).toBe(true);
  });

  it("has unique, kebab-case query_ids sorted in code-point order", () => {
    const ids = raw.map((j) => j.query_id);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    for (let i = 1; i < ids.length; i++) {
      // Strictly ascending implies unique. (ASCII ids: UTF-16 and code-point order agree.)
      expect(ids[i - 1]! < ids[i]!, `${ids[i - 1]} before ${ids[i]}`).toBe(true);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("gives ambiguous judgments at least 2 gold spans and no_answer judgments none", () => {
    for (const j of raw) {
      if (j.category === "ambiguous") expect(j.gold.length, j.query_id).toBeGreaterThanOrEqual(2);
      else if (j.category === "no_answer") expect(j.gold, j.query_id).toEqual([]);
      else expect(j.gold.length, j.query_id).toBeGreaterThanOrEqual(1);
    }
  });

  it("resolves every quote exactly once, verbatim, in its document", () => {
    expect(judgments).toHaveLength(raw.length);
    for (const j of judgments) {
      for (const g of j.gold) {
        const text = content.get(g.doc);
        expect(text, `${j.query_id}: ${g.doc}`).toBeDefined();
        const first = text!.indexOf(g.quote);
        expect(first, `${j.query_id}: quote found`).toBeGreaterThanOrEqual(0);
        expect(text!.indexOf(g.quote, first + 1), `${j.query_id}: quote unique`).toBe(-1);
        expect(new CodePointText(text!).slice(g.start, g.end)).toBe(g.quote);
      }
    }
  });

  it("keeps every query a paraphrase: token overlap with each gold quote <= 0.7", () => {
    // Self-check of the definition: "how long are logs kept" vs "logs are kept 14 days" -> {logs, are, kept} / 5 = 0.6
    expect(overlap("how long are logs kept", "logs are kept 14 days")).toBe(0.6);
    for (const j of raw) {
      for (const g of j.gold) expect(overlap(j.query, g.quote), j.query_id).toBeLessThanOrEqual(0.7);
    }
  });

  it("uses no_answer keyword phrases whose words appear nowhere in the corpus", () => {
    const vocabulary = new Set<string>();
    for (const text of content.values()) for (const t of tokens(text)) vocabulary.add(t);
    const noAnswer = raw.filter((j) => j.category === "no_answer");
    for (const j of noAnswer) {
      const shared = [...tokens(j.query)].filter((t) => vocabulary.has(t));
      expect(shared, j.query_id).toEqual([]);
      expect(tokens(j.query).size, j.query_id).toBeGreaterThanOrEqual(2);
    }
  });

  it("puts adversarial judgments in documents holding injection text, with gold outside it", () => {
    const adversarial = judgments.filter((j) => j.category === "adversarial");
    for (const j of adversarial) {
      for (const g of j.gold) {
        const text = content.get(g.doc)!;
        const lower = text.toLowerCase();
        expect(INJECTION_MARKERS.some((m) => lower.includes(m)), `${j.query_id}: ${g.doc} has injection text`).toBe(true);
        expect(INJECTION_MARKERS.some((m) => g.quote.toLowerCase().includes(m)), j.query_id).toBe(false);
        // The injection lives in blockquote lines ("> ..."); the gold span must not touch them.
        const cp = new CodePointText(text);
        const { startLine, endLine } = cp.lineRange(g.start, g.end);
        const lines = text.split("\n");
        for (let n = startLine; n <= endLine; n++) expect(lines[n - 1]!.startsWith(">"), `${j.query_id} line ${n}`).toBe(false);
      }
    }
    // Several distinct documents carry injection text.
    expect(new Set(adversarial.flatMap((j) => j.gold.map((g) => g.doc))).size).toBeGreaterThanOrEqual(4);
  });
});

/**
 * `npm run fuzz:grounding -- [--cases N] [--seed S] [--json] [--out FILE]`
 *
 * The grounding fuzz: answers built from real ingested passages (the golden
 * eval corpus — Markdown, HTML, PDF — and a generated corpus with astral
 * characters), with correct quotes (whitespace reshuffled), quotes taken from
 * an uncited passage, mutated quotes (one letter's case, a dropped or swapped
 * character, a changed word) and invented ones, and citations that are valid,
 * out of range or missing. Each quote's truth comes from an independent
 * oracle (a `\s+`-joined regular expression over the cited passages), never
 * from the code under test. Exits 1 on any quote reported found that is not
 * there, any real one missed, any found quote whose citation does not slice
 * back to it or does not verify, or any mis-read citation number.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openCollection, type Collection } from "../src/collection/index.js";
import type { SearchHit } from "../src/core/contracts.js";
import { mixSeed, Rng } from "./rng.js";
import { emitReport, runIfMain } from "./tool-cli.js";

const QUOTE_KINDS = ["correct", "uncited", "mutated", "invented"] as const;
type QuoteKind = (typeof QUOTE_KINDS)[number];
type CiteKind = "valid" | "out_of_range" | "none";

interface Args {
  cases: number;
  seed: number;
  json: boolean;
  out?: string | undefined;
}

interface Failure {
  case: number;
  what: string;
  quote?: string;
}

export interface GroundingFuzzReport {
  ok: boolean;
  seed: number;
  cases: number;
  quotes: number;
  /** Quotes generated, by kind, and how many of each the oracle said are really there. */
  by_kind: Record<QuoteKind, { generated: number; truly_present: number; reported_found: number }>;
  citations_by_kind: Record<CiteKind, number>;
  /** The number that matters: quotes reported found that are not in a cited passage. */
  false_found: number;
  /** Real quotes (in a cited passage) reported not found. */
  missed: number;
  /** Found quotes whose citation did not slice back to the quote or did not verify. */
  bad_citations: number;
  /** Sentences whose invalid citation numbers were read wrong. */
  misread_citations: number;
  /** Answers whose quotes were not all read as quotes. */
  misparsed: number;
  verdicts: Record<string, number>;
  failures: Failure[];
  ms_per_case: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { cases: 10_000, seed: 1, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const n = (): number => {
      const v = Number(argv[++i]);
      if (!Number.isSafeInteger(v) || v < 0) {
        process.stderr.write(`${a} needs a non-negative integer\n`);
        process.exit(2);
      }
      return v;
    };
    if (a === "--cases") args.cases = Math.max(1, n());
    else if (a === "--seed") args.seed = n() >>> 0;
    else if (a === "--json") args.json = true;
    else if (a === "--out") args.out = argv[++i];
    else {
      process.stderr.write(`unknown argument ${a}\nusage: fuzz:grounding [--cases N] [--seed S] [--json] [--out FILE]\n`);
      process.exit(2);
    }
  }
  return args;
}

/**
 * The oracle: is `quote` in `text` as whole words, whitespace runs aside (U+FEFF is no whitespace)?
 * Built independently of quote-match.ts, as one regular expression with look-arounds.
 */
function oracleContains(text: string, quote: string): boolean {
  const words = quote.split(/[^\S\uFEFF]+/).filter(Boolean);
  if (words.length === 0) return false;
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const W = "[\\p{L}\\p{M}\\p{N}\\p{Pc}]";
  const first = Array.from(words[0]!)[0]!;
  const last = Array.from(words[words.length - 1]!).pop()!;
  const isWord = (c: string): boolean => new RegExp(W, "u").test(c);
  const isDigit = (c: string): boolean => /\p{N}/u.test(c);
  // Not inside a word (format characters such as U+FEFF do not split one), nor inside a number ("30" of "30.5").
  const before = (isWord(first) ? `(?<!${W}\\p{Cf}*)` : "") + (isDigit(first) ? "(?<!\\p{N}\\p{Cf}*[.,]\\p{Cf}*)" : "");
  const after = (isWord(last) ? `(?!\\p{Cf}*${W})` : "") + (isDigit(last) ? "(?!\\p{Cf}*[.,]\\p{Cf}*\\p{N})" : "");
  return new RegExp(before + escaped.join("[^\\S\\uFEFF]+") + after, "u").test(text);
}

const ASTRAL = ["😀", "𠀀", "𝔘𝔫𝔦", "🚀", "𩸽"];

/** A generated corpus: plain text and Markdown with astral characters, CRLF line ends and odd spacing. */
function writeGeneratedCorpus(dir: string, rng: Rng): void {
  const vocab = ["backup", "restore", "ledger", "quota", "replica", "cipher", "token", "window", "archive", "shard", "commit", "journal"];
  for (let d = 0; d < 12; d++) {
    const lines: string[] = [`# Generated ${d}`, ""];
    for (let l = 0; l < 40; l++) {
      const words = Array.from({ length: rng.int(4, 16) }, () => (rng.float() < 0.1 ? rng.pick(ASTRAL) : rng.pick(vocab)));
      lines.push(words.join(rng.float() < 0.1 ? "  " : " ") + (rng.float() < 0.5 ? "." : ""));
      if (rng.float() < 0.15) lines.push("");
    }
    writeFileSync(join(dir, `gen-${d}.${d % 2 ? "txt" : "md"}`), lines.join(d % 3 === 0 ? "\r\n" : "\n"));
  }
}

/** A word-aligned span of a passage, usable inside "…" (no quote marks, no blank line), with its whitespace reshuffled. */
function pickSpan(rng: Rng, text: string): string | undefined {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length < 3) return undefined;
  for (let attempt = 0; attempt < 8; attempt++) {
    const len = rng.int(2, Math.min(12, words.length) + 1);
    const start = rng.int(0, words.length - len + 1);
    const span = words.slice(start, start + len);
    // No quotation mark of any kind the answer parser reads (one would end the quote early), and no brackets.
    if (span.some((w) => /["“”[\]«»„‟‹›「」『』｢｣＂〝〞〟❝❞`]/.test(w))) continue;
    return span.map((w, i) => (i === 0 ? w : rng.pick([" ", "  ", "\n", " \t", "\n   "]) + w)).join("");
  }
  return undefined;
}

/** Corrupt a quote a little: the kind of slip a model makes. */
function mutate(rng: Rng, quote: string): string {
  const chars = Array.from(quote);
  const letters = chars.flatMap((c, i) => (/\p{L}/u.test(c) ? [i] : []));
  const kind = rng.int(0, 4);
  if (letters.length === 0 || kind === 3) return `${quote} not`;
  const at = rng.pick(letters);
  const c = chars[at]!;
  if (kind === 0) chars[at] = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
  else if (kind === 1) chars.splice(at, 1);
  else if (at + 1 < chars.length) [chars[at], chars[at + 1]] = [chars[at + 1]!, chars[at]!];
  return chars.join("");
}

interface ExpectedQuote {
  text: string;
  kind: QuoteKind;
  truth: boolean;
}

interface BuiltAnswer {
  answer: string;
  quotes: ExpectedQuote[];
  invalid: number[][];
  cited: number[][];
}

function buildAnswer(rng: Rng, hits: readonly SearchHit[], vocab: readonly string[], counts: GroundingFuzzReport["citations_by_kind"]): BuiltAnswer {
  const sentences: string[] = [];
  const quotes: ExpectedQuote[] = [];
  const invalid: number[][] = [];
  const cited: number[][] = [];
  const n = hits.length;
  for (let s = 0; s < rng.int(1, 5); s++) {
    const citeKind: CiteKind = rng.float() < 0.8 ? "valid" : rng.pick(["out_of_range", "none"] as const);
    counts[citeKind]++;
    const valid = citeKind === "valid" ? [...new Set([rng.int(1, n + 1), ...(rng.float() < 0.3 ? [rng.int(1, n + 1)] : [])])] : [];
    const bad = citeKind === "out_of_range" ? [n + rng.int(1, 6)] : [];
    // Sentences begin with a capital, as a model writes them (a lower-case word after "." reads as an abbreviation).
    const first = rng.pick(vocab);
    const parts: string[] = [first[0]!.toUpperCase() + first.slice(1), rng.pick(vocab)];
    for (let q = 0; q < rng.int(0, 3); q++) {
      const kind = rng.pick(QUOTE_KINDS);
      const uncited = hits.map((_, i) => i + 1).filter((i) => !valid.includes(i));
      const from = kind === "uncited" ? (uncited.length ? rng.pick(uncited) : undefined) : valid.length ? rng.pick(valid) : rng.int(1, n + 1);
      let text: string | undefined = from !== undefined ? pickSpan(rng, hits[from - 1]!.text) : undefined;
      // A swap can move a letter past a line break and leave a blank line, which ends a quote by the answer syntax.
      if (kind === "mutated" && text !== undefined) text = mutate(rng, text).replace(/\n\s*\n/g, "\n");
      if (kind === "invented" || text === undefined) text = Array.from({ length: rng.int(2, 7) }, () => rng.pick(vocab)).join(" ");
      const truth = valid.some((v) => oracleContains(hits[v - 1]!.text, text!));
      quotes.push({ text, kind, truth });
      parts.push(`"${text}"`, rng.pick(vocab));
    }
    const marks = [...valid, ...bad].map((m) => `[${m}]`).join("");
    sentences.push(`${parts.join(" ")}${marks ? " " + marks : ""}.`);
    invalid.push(bad);
    cited.push(valid);
  }
  return { answer: sentences.join(rng.pick([" ", "\n", "  "])), quotes, invalid, cited };
}

const cpSlice = (text: string, start: number, end: number): string => Array.from(text).slice(start, end).join("");
const squash = (s: string): string => s.trim().replace(/\s+/g, " ");

async function runCase(col: Collection, i: number, args: Args, pools: SearchHit[][], vocab: string[], report: GroundingFuzzReport): Promise<void> {
  const rng = new Rng(mixSeed(args.seed, i));
  const hits = rng.pick(pools);
  const built = buildAnswer(rng, hits, vocab, report.citations_by_kind);
  const g = await col.ground(built.answer, hits);
  const fail = (what: string, quote?: string): void => {
    if (report.failures.length < 50) report.failures.push({ case: i, what, ...(quote !== undefined ? { quote } : {}) });
  };
  report.verdicts[g.verdict] = (report.verdicts[g.verdict] ?? 0) + 1;
  if (g.quotes.length !== built.quotes.length) {
    report.misparsed++;
    fail(`expected ${built.quotes.length} quotes, the report has ${g.quotes.length}`, built.answer);
    return;
  }
  for (const [k, expected] of built.quotes.entries()) {
    const got = g.quotes[k]!;
    const stats = report.by_kind[expected.kind];
    stats.generated++;
    report.quotes++;
    if (expected.truth) stats.truly_present++;
    if (got.found) stats.reported_found++;
    if (got.found && !expected.truth) {
      report.false_found++;
      fail(`${expected.kind} quote reported found but is not in a cited passage`, expected.text);
    }
    if (!got.found && expected.truth) {
      report.missed++;
      fail(`${expected.kind} quote is in a cited passage but was reported not found`, expected.text);
    }
    if (got.found && got.citation && got.passage !== null) {
      const p = hits[got.passage - 1]!;
      const sliced = cpSlice(p.text, got.citation.start_offset - p.citation.start_offset, got.citation.end_offset - p.citation.start_offset);
      if (squash(sliced) !== squash(expected.text) || got.verification?.verdict !== "verified") {
        report.bad_citations++;
        fail(`found quote's citation slices to ${JSON.stringify(sliced)} (${got.verification?.verdict})`, expected.text);
      }
    }
  }
  for (const [s, bad] of built.invalid.entries()) {
    const sentence = g.sentences[s];
    if (!sentence || JSON.stringify(sentence.invalid_citations) !== JSON.stringify(bad) || JSON.stringify(sentence.citations) !== JSON.stringify(built.cited[s])) {
      report.misread_citations++;
      fail(`sentence ${s + 1}: citations read as ${JSON.stringify(sentence?.citations)} / ${JSON.stringify(sentence?.invalid_citations)}`);
    }
  }
}

export async function runGroundingFuzz(args: Args): Promise<GroundingFuzzReport> {
  const work = mkdtempSync(join(tmpdir(), "grk-grounding-fuzz-"));
  const report: GroundingFuzzReport = {
    ok: false,
    seed: args.seed,
    cases: args.cases,
    quotes: 0,
    by_kind: Object.fromEntries(QUOTE_KINDS.map((k) => [k, { generated: 0, truly_present: 0, reported_found: 0 }])) as GroundingFuzzReport["by_kind"],
    citations_by_kind: { valid: 0, out_of_range: 0, none: 0 },
    false_found: 0,
    missed: 0,
    bad_citations: 0,
    misread_citations: 0,
    misparsed: 0,
    verdicts: {},
    failures: [],
    ms_per_case: 0,
  };
  try {
    const docs = join(work, "docs");
    cpSync(resolve(import.meta.dirname, "../../evals/corpus"), join(docs, "golden"), { recursive: true });
    const gen = join(docs, "generated");
    mkdirSync(gen, { recursive: true });
    writeGeneratedCorpus(gen, new Rng(mixSeed(args.seed, 0xc0ffee)));
    const col = await openCollection({ indexDir: join(work, ".groundkit"), create: true });
    try {
      await col.ingest([docs]);
      // Hit lists for a spread of queries: every passage of the corpora turns up in some.
      const vocab = ["backup", "restore", "ledger", "quota", "replica", "token", "archive", "database", "password", "migration", "logging", "cache", "incident", "install", "access", "sizing", "recovery", "release", "shard", "journal"];
      const pools: SearchHit[][] = [];
      for (const word of vocab) {
        for (const k of [2, 4, 6]) {
          const hits = await col.search(k === 2 ? word : `${word} ${vocab[(vocab.indexOf(word) + k) % vocab.length]}`, { topK: k });
          if (hits.length > 0) pools.push(hits);
        }
      }
      const started = performance.now();
      for (let i = 0; i < args.cases; i++) await runCase(col, i, args, pools, vocab, report);
      report.ms_per_case = Number(((performance.now() - started) / args.cases).toFixed(3));
    } finally {
      await col.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  report.ok = report.false_found === 0 && report.missed === 0 && report.bad_citations === 0 && report.misread_citations === 0 && report.misparsed === 0 && report.quotes > 0;
  return report;
}

function renderText(r: GroundingFuzzReport, command: string): string {
  const lines = [
    `grounding fuzz: ${r.cases} cases, ${r.quotes} quotes, seed ${r.seed} (${r.ms_per_case} ms/case) — ${command}`,
    "quote kind   generated  truly present  reported found",
    ...QUOTE_KINDS.map((k) => `${k.padEnd(11)} ${String(r.by_kind[k].generated).padStart(10)} ${String(r.by_kind[k].truly_present).padStart(14)} ${String(r.by_kind[k].reported_found).padStart(15)}`),
    `citations: ${Object.entries(r.citations_by_kind).map(([k, n]) => `${k} ${n}`).join(", ")}`,
    `verdicts: ${Object.entries(r.verdicts).map(([k, n]) => `${k} ${n}`).join(", ")}`,
    `false found: ${r.false_found}   missed: ${r.missed}   bad citations: ${r.bad_citations}   misread citation numbers: ${r.misread_citations}   misparsed answers: ${r.misparsed}`,
    ...r.failures.slice(0, 20).map((f) => `  case ${f.case}: ${f.what}${f.quote !== undefined ? ` — ${JSON.stringify(f.quote)}` : ""}`),
    r.ok ? "PASS" : "FAIL",
  ];
  return lines.join("\n");
}

runIfMain(import.meta.url, "fuzz:grounding", async () => {
  const args = parseArgs(process.argv.slice(2));
  const report = await runGroundingFuzz(args);
  emitReport(report, `npm run fuzz:grounding -- --cases ${args.cases} --seed ${args.seed}`, args, renderText);
});

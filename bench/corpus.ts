/**
 * Deterministic generated Markdown corpora for the benchmarks.
 *
 * Why generated: the suite must run from a clean clone with no download, give
 * the same corpus on every machine, and scale to a million chunks. Why these
 * shapes: BM25 cost depends on the term distribution (a few very common words
 * with long postings, a long tail of rare ones) and on document lengths, so the
 * vocabulary is Zipf-distributed (Zipf–Mandelbrot over ~50k words, real English
 * function words at the top ranks) and lengths are log-normal. Structure
 * (headings, paragraphs, lists, code fences, front matter) exercises the
 * Markdown-aware chunker the same way real documents do.
 *
 * Document `i` depends only on `i` (its own seeded PRNG), so a corpus can be
 * written in increments and any document regenerated on its own (the query
 * generator uses that for pasted paragraphs).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chunkText } from "../src/ingest/chunker.js";
import { mulberry32 } from "../src/core/random.js";

export { mulberry32 };

/** Vocabulary size (distinct words). */
export const VOCABULARY_SIZE = 50_000;

/** Zipf–Mandelbrot parameters: p(rank r) ∝ 1 / (r + q)^s, close to English text. */
export const ZIPF = { s: 1.07, q: 2.7 } as const;

/** Log-normal document length in characters: median and σ of ln(length). */
export const DOC_LENGTH = { median: 250, sigma: 0.9, min: 80, max: 60_000 } as const;

/** Documents per folder on disk (keeps directories small at a million files). */
export const FILES_PER_FOLDER = 1000;

/** Common English words at the top ranks, so the head of the distribution looks like real text. */
const HEAD_WORDS = (
  "the of and to a in is that for it as was with be by on not he this are or his from at which but have an they " +
  "you were her she there one all we their can has been if more when will would who so no data file index query " +
  "server user value system time first new use each other about many then them these two may could any only also " +
  "into over after how most where some what see through back much before well because should such here those " +
  "between same while under might never another three during without again place around however small every " +
  "found still large often since against high example table cache config error request result version build test"
)
  .split(" ")
  .filter((w, i, all) => all.indexOf(w) === i);

const ONSETS = ["b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z", "br", "cr", "dr", "fl", "gr", "pl", "pr", "st", "tr", "sh", "ch", "th", "qu", "sl", "sp", "bl", "kr"];
const NUCLEI = ["a", "e", "i", "o", "u", "ai", "ea", "ou", "io", "ie", "oo", "y"];
const CODAS = ["", "", "", "n", "r", "s", "t", "l", "m", "nd", "st", "rk", "x", "ng", "ck"];

/** The benchmark vocabulary, most frequent first. */
export class Vocabulary {
  readonly words: string[];
  private readonly cdf: Float64Array;

  constructor(size = VOCABULARY_SIZE) {
    const words = HEAD_WORDS.slice(0, size);
    const seen = new Set(words);
    const rand = mulberry32(20240607);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    while (words.length < size) {
      const syllables = 1 + Math.floor(rand() * 3) + (rand() < 0.3 ? 1 : 0);
      let w = "";
      for (let s = 0; s < syllables; s++) w += pick(ONSETS) + pick(NUCLEI) + pick(CODAS);
      if (w.length < 3 || w.length > 16 || seen.has(w)) continue;
      seen.add(w);
      words.push(w);
    }
    this.words = words;
    const cdf = new Float64Array(size);
    let total = 0;
    for (let r = 0; r < size; r++) {
      total += 1 / Math.pow(r + 1 + ZIPF.q, ZIPF.s);
      cdf[r] = total;
    }
    for (let r = 0; r < size; r++) cdf[r] = cdf[r]! / total;
    this.cdf = cdf;
  }

  /** A Zipf-distributed rank (0 = most frequent) for a uniform `u` in [0, 1). */
  rankFor(u: number): number {
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** A Zipf-distributed word. */
  sample(rand: () => number): string {
    return this.words[this.rankFor(rand())]!;
  }
}

let shared: Vocabulary | undefined;

/** The process-wide vocabulary (building it takes a few ms). */
export function vocabulary(): Vocabulary {
  shared ??= new Vocabulary();
  return shared;
}

/** A standard normal sample (Box–Muller). */
export function gaussian(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

const TAGS = ["security", "ops", "api", "guide", "internals", "release", "faq", "storage", "search", "deploy"];
const LANGS = ["ts", "python", "bash", "json", "sql", "go"];

function capitalize(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}

function words(v: Vocabulary, rand: () => number, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(v.sample(rand));
  return out;
}

function sentence(v: Vocabulary, rand: () => number): string {
  const ws = words(v, rand, 6 + Math.floor(rand() * 15));
  // Occasional inline Markdown, as in real prose.
  const decorate = rand();
  const at = Math.floor(rand() * ws.length);
  if (decorate < 0.08) ws[at] = "`" + ws[at] + "`";
  else if (decorate < 0.12) ws[at] = "**" + ws[at] + "**";
  else if (decorate < 0.15) ws[at] = `[${ws[at]}](https://example.com/${ws[at]})`;
  ws[0] = capitalize(ws[0]!);
  return ws.join(" ") + (rand() < 0.1 ? "?" : ".");
}

/** A paragraph of 1–5 sentences. */
export function paragraph(v: Vocabulary, rand: () => number): string {
  const n = 1 + Math.floor(rand() * 5);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(sentence(v, rand));
  return out.join(" ");
}

function codeBlock(v: Vocabulary, rand: () => number): string {
  const lang = LANGS[Math.floor(rand() * LANGS.length)]!;
  const lines = [`\`\`\`${lang}`];
  const n = 2 + Math.floor(rand() * 7);
  for (let i = 0; i < n; i++) {
    const [a, b, c] = words(v, rand, 3);
    lines.push(`${"  ".repeat(Math.floor(rand() * 3))}${a}_${b} = ${c}(${Math.floor(rand() * 1000)});`);
  }
  lines.push("```");
  return lines.join("\n");
}

function list(v: Vocabulary, rand: () => number): string {
  const ordered = rand() < 0.3;
  const n = 2 + Math.floor(rand() * 5);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(`${ordered ? `${i + 1}.` : "-"} ${capitalize(words(v, rand, 3 + Math.floor(rand() * 8)).join(" "))}`);
  }
  return out.join("\n");
}

/** The target length (characters) of document `i`. */
export function documentLength(rand: () => number): number {
  const len = Math.exp(Math.log(DOC_LENGTH.median) + DOC_LENGTH.sigma * gaussian(rand));
  return Math.round(Math.min(DOC_LENGTH.max, Math.max(DOC_LENGTH.min, len)));
}

/** Generate document `i` (a pure function of `i`). */
export function generateDocument(i: number, v: Vocabulary = vocabulary()): string {
  const rand = mulberry32((i + 1) * 2654435761);
  const target = documentLength(rand);
  const blocks: string[] = [];
  if (rand() < 0.1) {
    const tag = TAGS[Math.floor(rand() * TAGS.length)]!;
    blocks.push(`---\ntitle: ${capitalize(v.sample(rand))} ${v.sample(rand)}\ntags: [${tag}]\n---`);
  }
  blocks.push(`# ${words(v, rand, 2 + Math.floor(rand() * 5)).map(capitalize).join(" ")}`);
  let length = blocks.reduce((n, b) => n + b.length + 2, 0);
  let lastWasHeading = true;
  while (length < target) {
    const r = rand();
    let block: string;
    if (r < 0.14 && !lastWasHeading) block = `## ${capitalize(words(v, rand, 2 + Math.floor(rand() * 4)).join(" "))}`;
    else if (r < 0.3) block = list(v, rand);
    else if (r < 0.38) block = codeBlock(v, rand);
    else if (r < 0.42) block = `> ${sentence(v, rand)}`;
    else block = paragraph(v, rand);
    lastWasHeading = block.startsWith("## ");
    blocks.push(block);
    length += block.length + 2;
  }
  return blocks.join("\n\n") + "\n";
}

/** What a corpus (or an increment of one) holds. */
export interface CorpusStats {
  /** First and one-past-last document index written. */
  first_doc: number;
  end_doc: number;
  documents: number;
  bytes: number;
  /** Chunks the real chunker makes of these documents (counted while writing). */
  chunks: number;
  write_ms: number;
}

/** Chunker settings the corpus is counted with (the collection defaults unless overridden). */
export interface ChunkCounting {
  chunkSize: number;
  chunkOverlap: number;
}

/** Path of document `i` under `dir`. */
export function documentPath(dir: string, i: number): string {
  return join(dir, `d${String(Math.floor(i / FILES_PER_FOLDER)).padStart(4, "0")}`, `doc-${i}.md`);
}

/**
 * Write documents `first`, `first + 1`, … into `dir` until `stop` says enough
 * (given documents and chunks written so far). One document at a time, so memory
 * stays flat however large the corpus. Chunks are counted with the real chunker
 * so a size given in chunks is met exactly (to within one document).
 */
export function writeCorpus(
  dir: string,
  first: number,
  stop: (documents: number, chunks: number) => boolean,
  counting: ChunkCounting,
): CorpusStats {
  const started = performance.now();
  const v = vocabulary();
  let bytes = 0;
  let chunks = 0;
  let i = first;
  let folder = -1;
  while (!stop(i - first, chunks)) {
    const text = generateDocument(i, v);
    const f = Math.floor(i / FILES_PER_FOLDER);
    if (f !== folder) {
      mkdirSync(join(dir, `d${String(f).padStart(4, "0")}`), { recursive: true });
      folder = f;
    }
    writeFileSync(documentPath(dir, i), text);
    bytes += Buffer.byteLength(text);
    chunks += chunkText(text, { chunkSize: counting.chunkSize, chunkOverlap: counting.chunkOverlap, markdown: true }).length;
    i++;
  }
  return { first_doc: first, end_doc: i, documents: i - first, bytes, chunks, write_ms: performance.now() - started };
}

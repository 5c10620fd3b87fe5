/**
 * Move/edit benchmark (issue 28): do citations survive a reorganisation?
 *
 * From a real folder of Markdown documents (default: the docs shipped in
 * node_modules/fastify/docs and node_modules/undici/docs; `--source DIR` for
 * another), the generator copies the files, ingests them, and takes citations
 * the way a user holds them: every chunk of every document (a search hit's
 * citation) and one paragraph quote per chunk (`verify_quote`'s citation).
 * Then it reorganises the folder with a seeded generator, each file touched by
 * at most one operation: renames, moves across folders, renames with a small
 * edit, in-place edits, sections moved into another file, files split in two,
 * two files merged into one, deletions; the rest stay. The generator maps
 * every code-point range of every original file to where it put it, which is
 * the truth each citation is checked against after a re-ingest:
 *
 * - correct: `verified` where nothing moved; `drifted` relocated to the place
 *   the generator put the text (source and code points);
 * - wrong: a relocation anywhere else (the goal is 0);
 * - duplicate: the generator removed the text but an identical copy exists
 *   elsewhere in the tree and the relocation points at it (true, not wrong);
 * - ambiguous: the text is somewhere, but at several places, and verification
 *   names none of them (by design: it cannot tell which one the citation became);
 * - missed: the text is somewhere but verification did not say where;
 * - gone: the text is nowhere and the verdict says no place (correct).
 *
 * Each citation is verified twice: with its text (as `grk verify` reads a
 * search hit's JSON) and with the citation alone (the index has to know the
 * text by its hash). Time per verification is reported for both.
 *
 *   npm run bench:moves [-- options]   (HELP below)
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { citationOf } from "../src/cite/citation.js";
import { openCollection, type Citation, type Collection, type Verification } from "../src/index.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { integerOption, parseOptions } from "./cli-options.js";
import { mulberry32 } from "./corpus.js";

type Op = "untouched" | "rename" | "move" | "rename_edit" | "edit" | "section_moved" | "split" | "merge" | "delete";

/** Where a range [from, to) of an original file's code points went. */
interface Segment {
  from: number;
  to: number;
  dest: string;
  at: number;
}

interface Original {
  rel: string;
  text: string[]; // code points
  op: Op;
  segments: Segment[];
}

interface Held {
  citation: Citation;
  text: string;
  kind: "chunk" | "quote";
  original: Original;
}

type Outcome = "correct" | "wrong" | "duplicate" | "ambiguous" | "missed" | "gone";

const OPS: Op[] = ["rename", "move", "rename_edit", "edit", "section_moved", "split", "merge", "delete"];

const HELP = `usage: npm run bench:moves [-- options]
  --source DIR   the folder of Markdown documents reorganised (default node_modules/fastify/docs and node_modules/undici/docs)
  --seed N       the reorganisation's seed, a non-negative integer (default 28)
  --out DIR      results folder (default bench/results/moves)
`;

function args(): { source: string[]; seed: number; out: string } {
  const { values } = parseOptions({
    options: { source: { type: "string" }, seed: { type: "string", default: "28" }, out: { type: "string", default: "bench/results/moves" } },
    strict: true,
  }, HELP);
  const sources = values.source ? [resolve(values.source)] : ["node_modules/fastify/docs", "node_modules/undici/docs"].map((p) => resolve(p));
  return { source: sources, seed: integerOption("seed", values.seed, 0), out: values.out };
}

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...markdownFiles(p));
    else if (name.endsWith(".md")) out.push(p);
  }
  return out;
}

/** Code points of a file as ingest sees them (BOM stripped, CRLF and CR as LF). */
function normalized(path: string): string[] {
  return Array.from(readFileSync(path, "utf8").replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n"));
}

/** Offsets of the starts of "## " sections after the first line (code points). */
function sectionStarts(text: string[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < text.length - 3; i++) if (text[i - 1] === "\n" && text[i] === "#" && text[i + 1] === "#") out.push(i);
  return out;
}

/** A word in the middle third of the text: [start, end) of a run of letters, or undefined. */
function middleWord(text: string[], rand: () => number): [number, number] | undefined {
  const lo = Math.floor(text.length / 3);
  const hi = Math.floor((2 * text.length) / 3);
  for (let tries = 0; tries < 50; tries++) {
    let i = lo + Math.floor(rand() * Math.max(1, hi - lo));
    while (i < hi && !/\p{L}/u.test(text[i]!)) i++;
    let j = i;
    while (j < text.length && /\p{L}/u.test(text[j]!)) j++;
    if (j - i >= 4 && (i === 0 || !/\p{L}/u.test(text[i - 1]!))) return [i, j];
  }
  return undefined;
}

/** Apply the generator's operations to `tree`; every original records where its ranges went. */
function reorganise(originals: Original[], tree: string, rand: () => number): void {
  const write = (rel: string, text: string[]) => {
    mkdirSync(dirname(join(tree, rel)), { recursive: true });
    writeFileSync(join(tree, rel), text.join(""));
  };
  const remove = (rel: string) => rmSync(join(tree, rel));
  const renamed = (rel: string, tag: string) => rel.replace(/\.md$/, `-${tag}.md`);
  // Assign operations round-robin over a shuffled list, so each kind gets its share; a quarter stays untouched.
  const order = originals.map((_, i) => i).sort(() => rand() - 0.5);
  const untouchedEvery = 4;
  let k = 0;
  let next = 0;
  const pending = [...order];
  while (pending.length > 0) {
    const o = originals[pending.shift()!]!;
    if (k++ % untouchedEvery === 0) {
      o.op = "untouched";
      o.segments = [{ from: 0, to: o.text.length, dest: o.rel, at: 0 }];
      continue;
    }
    let op = OPS[next++ % OPS.length]!;
    // Two-file operations need a partner still untouched by any operation.
    const partnerIdx = pending.findIndex((i) => originals[i]!.op === "untouched" && originals[i]!.segments.length === 0);
    if ((op === "section_moved" || op === "merge") && partnerIdx < 0) op = "rename";
    const sections = sectionStarts(o.text);
    if ((op === "section_moved" || op === "split") && sections.length < 2) op = "move";
    const word = middleWord(o.text, rand);
    if ((op === "rename_edit" || op === "edit") && !word) op = "rename";
    o.op = op;
    const len = o.text.length;
    switch (op) {
      case "rename": {
        const dest = renamed(o.rel, "renamed");
        remove(o.rel);
        write(dest, o.text);
        o.segments = [{ from: 0, to: len, dest, at: 0 }];
        break;
      }
      case "move": {
        const dest = join("moved", o.rel);
        remove(o.rel);
        write(dest, o.text);
        o.segments = [{ from: 0, to: len, dest, at: 0 }];
        break;
      }
      case "rename_edit":
      case "edit": {
        const [p, q] = word!;
        const replacement = Array.from("REVISED");
        const dest = op === "edit" ? o.rel : renamed(o.rel, "edited");
        const next = [...o.text.slice(0, p), ...replacement, ...o.text.slice(q)];
        if (op === "rename_edit") remove(o.rel);
        write(dest, next);
        o.segments = [
          { from: 0, to: p, dest, at: 0 },
          { from: q, to: len, dest, at: p + replacement.length },
        ];
        break;
      }
      case "section_moved": {
        const partner = originals[pending.splice(partnerIdx, 1)[0]!]!;
        const cut = sections[sections.length - 1]!;
        const sep = Array.from("\n\n");
        write(o.rel, o.text.slice(0, cut));
        write(partner.rel, [...partner.text, ...sep, ...o.text.slice(cut)]);
        o.segments = [
          { from: 0, to: cut, dest: o.rel, at: 0 },
          { from: cut, to: len, dest: partner.rel, at: partner.text.length + sep.length },
        ];
        partner.op = "untouched";
        partner.segments = [{ from: 0, to: partner.text.length, dest: partner.rel, at: 0 }];
        break;
      }
      case "split": {
        const cut = sections[Math.floor(sections.length / 2)]!;
        const a = renamed(o.rel, "part1");
        const b = renamed(o.rel, "part2");
        remove(o.rel);
        write(a, o.text.slice(0, cut));
        write(b, o.text.slice(cut));
        o.segments = [
          { from: 0, to: cut, dest: a, at: 0 },
          { from: cut, to: len, dest: b, at: 0 },
        ];
        break;
      }
      case "merge": {
        const partner = originals[pending.splice(partnerIdx, 1)[0]!]!;
        const dest = renamed(o.rel, "merged");
        const sep = Array.from("\n\n");
        remove(o.rel);
        remove(partner.rel);
        write(dest, [...o.text, ...sep, ...partner.text]);
        o.segments = [{ from: 0, to: len, dest, at: 0 }];
        partner.op = "merge";
        partner.segments = [{ from: 0, to: partner.text.length, dest, at: len + sep.length }];
        break;
      }
      case "delete": {
        remove(o.rel);
        o.segments = [];
        break;
      }
      default:
        throw new Error(`unknown operation ${op as string}`);
    }
  }
}

/** Where the generator put [start, end) of an original, or undefined when the span did not survive whole. */
function truthOf(o: Original, start: number, end: number): { dest: string; start: number; end: number } | undefined {
  const seg = o.segments.find((s) => s.from <= start && end <= s.to);
  if (!seg) return undefined;
  return { dest: seg.dest, start: seg.at + (start - seg.from), end: seg.at + (end - seg.from) };
}

function judge(h: Held, v: Verification, tree: string, finalTexts: Map<string, string[]>): Outcome {
  const truth = truthOf(h.original, h.citation.start_offset, h.citation.end_offset);
  const citedAt = relative(tree, h.citation.source);
  const rel = v.relocated;
  if (v.verdict === "verified") {
    if (truth && truth.dest === citedAt && truth.start === h.citation.start_offset) return "correct";
    return "wrong";
  }
  if (rel) {
    const relAt = rel.source !== undefined ? relative(tree, rel.source) : citedAt;
    if (truth && truth.dest === relAt && truth.start === rel.start_offset && truth.end === rel.end_offset) return "correct";
    const there = finalTexts.get(relAt);
    const same = there !== undefined && there.slice(rel.start_offset, rel.end_offset).join("") === h.text;
    return !truth && same ? "duplicate" : "wrong";
  }
  if (!truth) return "gone";
  // Not relocated because the text now sits at several places: no place is named rather than maybe the wrong one.
  return v.detail.includes("occurs at several places") ? "ambiguous" : "missed";
}

async function heldCitations(col: Collection, file: string, originals: Map<string, Original>, tree: string, rand: () => number): Promise<Held[]> {
  const held: Held[] = [];
  // The chunks read straight from the collection file (read-only): every one a search could return.
  const store = SqliteStore.open(file, { create: false, readonly: true });
  try {
    for (let after: string | undefined; ; ) {
      const page = await col.listDocuments({ after, limit: 1000 });
      for (const d of page.documents) {
        const original = originals.get(relative(tree, d.source))!;
        for (const row of await store.chunksOf(d.document_id)) {
          const chunk = (await store.getChunk(row.chunk_id))!;
          held.push({ citation: citationOf(chunk), text: chunk.text, kind: "chunk", original });
        // One paragraph of the chunk (at least 60 characters), quoted and cited on its own.
          const paragraphs = chunk.text.split(/\n{2,}/).filter((p) => p.trim().length >= 60 && !p.includes("\n#"));
          if (paragraphs.length === 0) continue;
          const quote = paragraphs[Math.floor(rand() * paragraphs.length)]!.trim();
          const check = await col.verifyQuote(quote, { chunkId: chunk.chunk_id });
          const occ = check.occurrences[0];
          if (occ) held.push({ citation: occ.citation, text: quote, kind: "quote", original });
        }
      }
      if (page.next_after === null) break;
      after = page.next_after;
    }
  } finally {
    await store.close();
  }
  return held;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const { source, seed, out } = args();
  const rand = mulberry32(seed);
  const work = mkdtempSync(join(tmpdir(), "grk-bench-moves-"));
  const tree = join(work, "docs");
  try {
    const originals = new Map<string, Original>();
    for (const dir of source) {
      for (const file of markdownFiles(dir)) {
        const rel = join(relative(dirname(dir), dir).replace(/[\\/]/g, "-") || "docs", relative(dir, file));
        mkdirSync(dirname(join(tree, rel)), { recursive: true });
        copyFileSync(file, join(tree, rel));
        const text = normalized(join(tree, rel));
        writeFileSync(join(tree, rel), text.join(""));
        originals.set(rel, { rel, text, op: "untouched", segments: [] });
      }
    }
    const col = await openCollection({ indexDir: join(work, "idx"), collection: "moves", create: true });
    try {
      const first = await col.ingest([tree]);
      const held = await heldCitations(col, join(work, "idx", "moves.sqlite3"), originals, tree, rand);
      reorganise([...originals.values()], tree, rand);
      const second = await col.ingest([tree]);
      const finalTexts = new Map(markdownFiles(tree).map((p) => [relative(tree, p), normalized(p)]));
      const ops: Record<string, number> = {};
      for (const o of originals.values()) ops[o.op] = (ops[o.op] ?? 0) + 1;
      const idsKept = await documentIdsKept(col, held, tree);

      const modes = { with_text: true, citation_only: false };
      const results: Record<string, unknown> = {};
      for (const [mode, withText] of Object.entries(modes)) {
        const counts: Record<Outcome, number> = { correct: 0, wrong: 0, duplicate: 0, ambiguous: 0, missed: 0, gone: 0 };
        const byOp: Record<string, Record<Outcome, number>> = {};
        const times: number[] = [];
        const wrongExamples: unknown[] = [];
        const ambiguousExamples: unknown[] = [];
        for (const h of held) {
          const t0 = performance.now();
          const v = await col.verify(h.citation, withText ? { originalText: h.text } : {});
          times.push(performance.now() - t0);
          const outcome = judge(h, v, tree, finalTexts);
          counts[outcome]++;
          const row = (byOp[`${h.original.op}/${h.kind}`] ??= { correct: 0, wrong: 0, duplicate: 0, ambiguous: 0, missed: 0, gone: 0 });
          row[outcome]++;
          if (outcome === "wrong" && wrongExamples.length < 5) wrongExamples.push({ citation: h.citation, op: h.original.op, verification: v });
          if (outcome === "ambiguous" && ambiguousExamples.length < 20) ambiguousExamples.push({ source: h.citation.source, op: h.original.op, kind: h.kind, text: h.text.slice(0, 120), detail: v.detail });
        }
        times.sort((a, b) => a - b);
        results[mode] = {
          ...counts,
          by_operation: byOp,
          ms_per_verification: {
            mean: Math.round((times.reduce((a, b) => a + b, 0) / Math.max(1, times.length)) * 1000) / 1000,
            p50: Math.round(percentile(times, 50) * 1000) / 1000,
            p95: Math.round(percentile(times, 95) * 1000) / 1000,
          },
          wrong_examples: wrongExamples,
          ambiguous_examples: ambiguousExamples,
        };
      }
      const report = {
        source: source.map((s) => relative(process.cwd(), s)),
        seed,
        files: originals.size,
        operations: ops,
        citations: { total: held.length, chunks: held.filter((h) => h.kind === "chunk").length, quotes: held.filter((h) => h.kind === "quote").length },
        ingest_before: { indexed: first.indexed, chunks: first.chunks_written },
        ingest_after: { indexed: second.indexed, moved: second.moved, removed: second.removed, unchanged: second.unchanged },
        ids_kept: idsKept,
        results,
      };
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(`${out}.json`, JSON.stringify(report, null, 2) + "\n");
      writeFileSync(`${out}.md`, markdown(report as unknown as Report));
      process.stdout.write(markdown(report as unknown as Report));
    } finally {
      await col.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Per operation whose file went whole to one place (rename, move, rename with
 * an edit, edit, untouched): how many documents kept their id there.
 */
async function documentIdsKept(col: Collection, held: readonly Held[], tree: string): Promise<Record<string, IdsKept>> {
  const before = new Map<Original, string>();
  const chunks = new Map<Original, number>();
  for (const h of held) {
    before.set(h.original, h.citation.document_id);
    if (h.kind === "chunk") chunks.set(h.original, (chunks.get(h.original) ?? 0) + 1);
  }
  const now = new Map<string, string>();
  for (let after: string | undefined; ; ) {
    const page = await col.listDocuments({ after, limit: 1000 });
    for (const d of page.documents) now.set(relative(tree, d.source), d.document_id);
    if (page.next_after === null) break;
    after = page.next_after;
  }
  const out: Record<string, IdsKept> = {};
  for (const [o, id] of before) {
    const dests = new Set(o.segments.map((seg) => seg.dest));
    if (!["rename", "move", "rename_edit", "edit", "untouched"].includes(o.op) || dests.size !== 1) continue;
    const row = (out[o.op] ??= { kept: 0, of: 0, lost_chunks: [] });
    row.of++;
    if (now.get([...dests][0]!) === id) row.kept++;
    else row.lost_chunks.push(chunks.get(o) ?? 0);
  }
  return out;
}

/** Documents of one operation that kept their id, and the chunk counts of those that did not. */
interface IdsKept {
  kept: number;
  of: number;
  lost_chunks: number[];
}

interface ModeResult extends Record<Outcome, number> {
  by_operation: Record<string, Record<Outcome, number>>;
  ms_per_verification: { mean: number; p50: number; p95: number };
}
interface Report {
  source: string[];
  seed: number;
  files: number;
  operations: Record<string, number>;
  citations: { total: number; chunks: number; quotes: number };
  ingest_after: { indexed: number; moved: number; removed: number; unchanged: number };
  ids_kept: Record<string, IdsKept>;
  results: Record<string, ModeResult>;
}

function markdown(r: Report): string {
  const lines = [
    `# Move/edit benchmark`,
    ``,
    `Source: ${r.source.join(", ")} (${r.files} files), seed ${r.seed}. Operations: ${Object.entries(r.operations).map(([k, v]) => `${k} ${v}`).join(", ")}.`,
    `Citations held before the changes: ${r.citations.total} (${r.citations.chunks} chunks, ${r.citations.quotes} paragraph quotes).`,
    `Re-ingest after the changes: ${r.ingest_after.moved} moved, ${r.ingest_after.indexed} indexed, ${r.ingest_after.removed} removed, ${r.ingest_after.unchanged} unchanged.`,
    `Document ids kept by files that went whole to one place: ${Object.entries(r.ids_kept).sort(([a], [b]) => a.localeCompare(b)).map(([op, k]) => `${op} ${k.kept}/${k.of}${k.lost_chunks.length ? ` (the others had ${k.lost_chunks.sort((a, b) => a - b).join(", ")} chunks)` : ""}`).join(", ")}.`,
    ``,
    `| verified with | correct | wrong | duplicate | ambiguous | missed | gone | ms/verification (mean, p50, p95) |`,
    `|---|---|---|---|---|---|---|---|`,
  ];
  for (const [mode, m] of Object.entries(r.results)) {
    const t = m.ms_per_verification;
    lines.push(`| ${mode.replace("_", " ")} | ${m.correct} | ${m.wrong} | ${m.duplicate} | ${m.ambiguous} | ${m.missed} | ${m.gone} | ${t.mean}, ${t.p50}, ${t.p95} |`);
  }
  lines.push(``, `By operation and citation kind (with text / citation only):`, ``, `| operation/kind | correct | wrong | duplicate | ambiguous | missed | gone |`, `|---|---|---|---|---|---|---|`);
  const withText = r.results.with_text!;
  const only = r.results.citation_only!;
  for (const key of Object.keys(withText.by_operation).sort()) {
    const a = withText.by_operation[key]!;
    const b = only.by_operation[key]!;
    const cell = (o: Outcome) => `${a[o]} / ${b[o]}`;
    lines.push(`| ${key} | ${cell("correct")} | ${cell("wrong")} | ${cell("duplicate")} | ${cell("ambiguous")} | ${cell("missed")} | ${cell("gone")} |`);
  }
  return lines.join("\n") + "\n";
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});

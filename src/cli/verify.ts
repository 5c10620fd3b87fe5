/** `grk verify <file|->`: verify a citation printed earlier by `search --json`, or a whole `answer --json`. */
import { readFileSync } from "node:fs";
import { Command } from "commander";
import type { GroundingReport, PassageReport } from "../answer/grounding.js";
import type { SearchHit, Verification } from "../core/contracts.js";
import { GroundkitError } from "../core/errors.js";
import { action, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { asCitedLines, locator } from "./format.js";

type VerifyFlags = CommonFlags & { baseDir?: string };

/** What a JSON file holds: citations (each maybe naming its collection), or an answer to re-ground. */
type VerifyInput =
  | { kind: "citations"; items: unknown[]; collection: string | undefined }
  | { kind: "answer"; answer: string; passages: PassageReport[]; collection: string | undefined };

export function verifyCommand(): Command {
  const cmd = new Command("verify")
    .description(
      "verify a citation JSON (a citation, a search hit, a search --json output) against its source, " +
        "or re-ground a whole answer --json output (exit 0 only when it is grounded)",
    )
    .argument("<file>", "a JSON file, or - for stdin")
    .option("--base-dir <dir>", "containment root (default: the base dir recorded at ingest)");
  withCommonOptions(cmd).action(
    action(async (file: string, flags: VerifyFlags) => {
      const input = readInput(file);
      return input.kind === "answer" ? verifyAnswer(input, flags) : verifyCitations(input, flags);
    }),
  );
  return cmd;
}

/**
 * The collection to verify in: --collection when given (a copy of the collection holds the same
 * documents, so its citations verify there too), else the one the file names (a `search --json` or
 * `answer --json` output says it), else the config's.
 */
function collectionFor(named: string | undefined, flags: VerifyFlags): string | undefined {
  return flags.collection ?? named;
}

async function verifyCitations(input: Extract<VerifyInput, { kind: "citations" }>, flags: VerifyFlags): Promise<number> {
  const { openCollection, parseCitation } = await import("../collection/index.js");
  const loc = resolveLocation(flags);
  const cols = new Map<string, Awaited<ReturnType<typeof openCollection>>>();
  const open = async (name: string | undefined) => {
    const key = name ?? "";
    let col = cols.get(key);
    if (!col) {
      col = await openCollection({ ...loc, ...(name !== undefined ? { collection: name } : {}) });
      cols.set(key, col);
    }
    return col;
  };
  try {
    const results = [];
    for (const item of input.items) {
      // A hit of a search across collections names its own.
      const own = (item as { collection?: unknown } | null)?.collection;
      const col = await open(collectionFor(typeof own === "string" ? own : input.collection, flags));
      const text = typeof (item as { text?: unknown }).text === "string" ? (item as { text: string }).text : undefined;
      const verification = await col.verify(item, { baseDir: flags.baseDir, originalText: text });
      const citation = (item as { citation?: unknown }).citation ?? item;
      results.push({ citation, ...verification });
    }
    if (flags.json) printJson(results.length === 1 ? results[0] : results);
    else for (const [i, r] of results.entries()) for (const line of renderVerdict(parseCitation(input.items[i]), input.items[i], i, r)) println(line);
    return results.every((r) => r.verdict === "verified") ? 0 : 1;
  } finally {
    for (const col of cols.values()) await col.close();
  }
}

/**
 * An `answer --json` output re-grounded as a whole, against its passages as they are now: every
 * sentence's citations, every quote, every cited passage. Exit 0 only when the answer is grounded.
 */
async function verifyAnswer(input: Extract<VerifyInput, { kind: "answer" }>, flags: VerifyFlags): Promise<number> {
  const { openCollection, parseCitation } = await import("../collection/index.js");
  const col = await openCollection({ ...resolveLocation(flags), ...withName(collectionFor(input.collection, flags)) });
  try {
    const hits: SearchHit[] = input.passages.map((p) => ({
      rank: p.n,
      score: p.score,
      chunk_id: p.chunk_id,
      document_id: p.document_id,
      text: p.text,
      heading_path: p.heading_path,
      citation: parseCitation(p.citation),
      passage: { text: p.text, start_offset: 0, end_offset: [...p.text].length, terms: [], basis: "chunk_start" },
    }));
    const report = await col.ground(input.answer, hits, { baseDir: flags.baseDir });
    if (flags.json) printJson({ collection: col.name, ...report });
    else for (const line of renderGrounding(report)) println(line);
    return report.verdict === "grounded" ? 0 : 1;
  } finally {
    await col.close();
  }
}

function withName(name: string | undefined): { collection?: string } {
  return name === undefined ? {} : { collection: name };
}

/** The answer's verdict, then what keeps it from being grounded: unfound quotes, unsupported sentences, passages that moved. */
function renderGrounding(r: GroundingReport): string[] {
  const c = r.counts;
  const out = [
    `${r.verdict}  answer: ${r.reason}`,
    `   sentences ${c.supported}/${c.sentences} supported, quotes ${c.quotes_found}/${c.quotes} found, ` +
      `cited passages ${c.passages_verified} verified, ${c.passages_drifted} drifted, ${c.passages_unresolvable} unresolvable`,
  ];
  for (const q of r.quotes) {
    if (!q.found) out.push(`quote ${q.index} not found  "${q.text}"`, `   ${q.detail}`);
    else if (q.verification && q.verification.verdict !== "verified") out.push(`quote ${q.index} ${q.verification.verdict}  "${q.text}"`, `   ${q.verification.detail}`);
  }
  for (const s of r.sentences) if (s.status !== "supported") out.push(`sentence ${s.index} ${s.status.replaceAll("_", " ")}`, `   ${s.detail}`);
  for (const p of r.passages) {
    if (p.verification && p.verification.verdict !== "verified") out.push(`passage [${p.n}] ${p.verification.verdict}  ${locator(p.citation)}`, `   ${p.verification.detail}`);
  }
  return out;
}

/**
 * One verdict naming what it is about: the hit (its rank when the input was a
 * search hit, else its position), where the citation points, and its chunk.
 */
function renderVerdict(citation: Parameters<typeof locator>[0] & { chunk_id: string }, input: unknown, index: number, r: Verification): string[] {
  const rank = (input as { rank?: unknown }).rank;
  const label = typeof rank === "number" ? `hit ${rank}` : `citation ${index + 1}`;
  return [`${r.verdict}  ${label}  ${locator(citation)}  chunk ${citation.chunk_id}`, `   ${r.detail}`, ...asCitedLines(r, "   ")];
}

/** Read one citation, a list, a whole `search --json` output, or an `answer --json` output. */
function readInput(file: string): VerifyInput {
  let raw: string;
  try {
    raw = readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (err) {
    throw new GroundkitError("SOURCE_NOT_FOUND", `Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? "error"}.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new GroundkitError("INVALID_CITATION", `${file === "-" ? "stdin" : file} is not JSON.`);
  }
  if (Array.isArray(value)) return { kind: "citations", items: value, collection: undefined };
  const named = (value as { collection?: unknown } | null)?.collection;
  const collection = typeof named === "string" ? named : undefined;
  const results = (value as { results?: unknown } | null)?.results;
  if (Array.isArray(results)) return { kind: "citations", items: results, collection };
  const answer = value as { answer?: unknown; grounding?: { passages?: unknown } } | null;
  if (typeof answer?.answer === "string" && Array.isArray(answer.grounding?.passages)) {
    return { kind: "answer", answer: answer.answer, passages: answer.grounding.passages as PassageReport[], collection };
  }
  return { kind: "citations", items: [value], collection: undefined };
}

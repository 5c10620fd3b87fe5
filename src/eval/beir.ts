/**
 * Streaming readers for BEIR-format datasets:
 *
 * ```
 * DIR/corpus.jsonl        {"_id": "...", "title": "...", "text": "...", ...}
 * DIR/queries.jsonl       {"_id": "...", "text": "...", ...}
 * DIR/qrels/<split>.tsv   query-id <TAB> corpus-id <TAB> score   (first row is a header)
 * ```
 *
 * Files are read line by line (readline over a file stream), so memory stays bounded by the
 * longest line, not the dataset. Bytes must be strict UTF-8; CRLF line ends are tolerated.
 */
import { createReadStream } from "node:fs";
import { access } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { createInterface } from "node:readline";
import { GroundkitError } from "../core/errors.js";

/** One corpus document. `title` is "" when the dataset has none. */
export interface BeirDocument {
  _id: string;
  title: string;
  text: string;
}

/** One query. */
export interface BeirQuery {
  _id: string;
  text: string;
}

/** Relevance judgments: query id → (document id → graded gain; 0 means judged non-relevant). */
export type BeirQrels = Map<string, Map<string, number>>;

function datasetError(message: string, detail: Record<string, unknown>, cause?: unknown): GroundkitError {
  return new GroundkitError("DATASET_INVALID", message, detail, cause === undefined ? undefined : { cause });
}

/** Decode a byte stream as strict UTF-8, chunk by chunk (a multi-byte sequence may straddle chunks). */
async function* strictUtf8(file: string): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  try {
    for await (const chunk of createReadStream(file)) yield decoder.decode(chunk as Buffer, { stream: true });
    const tail = decoder.decode();
    if (tail) yield tail;
  } catch (err) {
    if ((err as { code?: unknown }).code === "ERR_ENCODING_INVALID_ENCODED_DATA") throw datasetError(`${file} is not valid UTF-8.`, { file }, err);
    throw err;
  }
}

/** Yield `[lineNumber, line]` for each line; a trailing CR (CRLF files) is dropped. */
async function* readLines(file: string): AsyncGenerator<[number, string]> {
  try {
    await access(file);
  } catch (err) {
    throw datasetError(`Missing dataset file ${file}.`, { file }, err);
  }
  const rl = createInterface({ input: Readable.from(strictUtf8(file)), crlfDelay: Infinity });
  let n = 0;
  for await (const raw of rl) {
    n++;
    yield [n, raw.endsWith("\r") ? raw.slice(0, -1) : raw];
  }
}

/** BEIR ids are strings, but some exports write numeric ids as JSON numbers: accept both. */
function idOf(v: unknown): string | undefined {
  if (typeof v === "string" && v !== "") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return undefined;
}

async function* readJsonl(file: string): AsyncGenerator<[number, Record<string, unknown>]> {
  for await (const [n, line] of readLines(file)) {
    if (line.trim() === "") continue;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch (err) {
      throw datasetError(`${file}:${n}: invalid JSON: ${(err as Error).message}`, { file, line: n }, err);
    }
    if (obj === null || typeof obj !== "object" || Array.isArray(obj)) {
      throw datasetError(`${file}:${n}: expected a JSON object.`, { file, line: n });
    }
    yield [n, obj as Record<string, unknown>];
  }
}

/**
 * Stream `DIR/corpus.jsonl`. Extra fields (e.g. `metadata`) are ignored.
 *
 * @example
 *   for await (const doc of readBeirCorpus("datasets/scifact")) ingest(doc._id, beirDocumentText(doc));
 */
export async function* readBeirCorpus(dir: string): AsyncGenerator<BeirDocument> {
  const file = path.join(dir, "corpus.jsonl");
  for await (const [n, o] of readJsonl(file)) {
    const id = idOf(o._id);
    if (id === undefined) throw datasetError(`${file}:${n}: "_id" must be a non-empty string.`, { file, line: n });
    if (typeof o.text !== "string") throw datasetError(`${file}:${n}: "text" must be a string.`, { file, line: n });
    const title = o.title === undefined || o.title === null ? "" : o.title;
    if (typeof title !== "string") throw datasetError(`${file}:${n}: "title" must be a string.`, { file, line: n });
    yield { _id: id, title, text: o.text };
  }
}

/**
 * Stream `DIR/queries.jsonl`.
 *
 * @example
 *   const queries = [];
 *   for await (const q of readBeirQueries(dir)) queries.push(q);
 */
export async function* readBeirQueries(dir: string): AsyncGenerator<BeirQuery> {
  const file = path.join(dir, "queries.jsonl");
  for await (const [n, o] of readJsonl(file)) {
    const id = idOf(o._id);
    if (id === undefined) throw datasetError(`${file}:${n}: "_id" must be a non-empty string.`, { file, line: n });
    if (typeof o.text !== "string") throw datasetError(`${file}:${n}: "text" must be a string.`, { file, line: n });
    yield { _id: id, text: o.text };
  }
}

/**
 * Read `DIR/qrels/<split>.tsv` into a map. The first line is the header (`query-id corpus-id
 * score`) and is skipped; blank lines are ignored; scores are integers (graded); rows scoring 0
 * are kept as judged non-relevant (metrics count only gains > 0 as relevant). A repeated
 * (query, doc) pair keeps the last row, like BEIR's own loader.
 *
 * @example
 *   const qrels = await readBeirQrels("datasets/scifact", "test");
 *   qrels.get("1")?.get("31715818") // 1
 */
export async function readBeirQrels(dir: string, split: string): Promise<BeirQrels> {
  if (!/^[A-Za-z0-9._-]+$/.test(split) || split.startsWith(".")) {
    throw new GroundkitError("INVALID_ARGUMENT", `Invalid split name ${JSON.stringify(split)}.`, { split });
  }
  const file = path.join(dir, "qrels", `${split}.tsv`);
  const qrels: BeirQrels = new Map();
  let sawHeader = false;
  for await (const [n, line] of readLines(file)) {
    if (line.trim() === "") continue;
    if (!sawHeader) {
      sawHeader = true;
      continue;
    }
    const cols = line.split("\t");
    if (cols.length !== 3) {
      throw datasetError(`${file}:${n}: expected 3 tab-separated columns (query-id, corpus-id, score), got ${cols.length}.`, {
        file,
        line: n,
      });
    }
    const [qid, did, score] = cols.map((c) => c.trim()) as [string, string, string];
    if (qid === "" || did === "") throw datasetError(`${file}:${n}: empty query or corpus id.`, { file, line: n });
    if (!/^-?\d+$/.test(score)) {
      throw datasetError(`${file}:${n}: score ${JSON.stringify(score)} is not an integer.`, { file, line: n });
    }
    let docs = qrels.get(qid);
    if (!docs) qrels.set(qid, (docs = new Map()));
    docs.set(did, Number.parseInt(score, 10));
  }
  return qrels;
}

/**
 * The text ingested for a BEIR document: the title on its own first line, a blank line, then the
 * body — so BM25 sees title terms (BEIR's published BM25 indexes title and body together) and a
 * Markdown-aware chunker sees a paragraph break between them. With no (or a blank) title, the
 * body alone. The lead may tune this join by measurement (`grk eval --sweep`).
 *
 * @example
 *   beirDocumentText({ _id: "1", title: "Aspirin", text: "Reduces fever." }) // "Aspirin\n\nReduces fever."
 */
export function beirDocumentText(doc: Pick<BeirDocument, "title" | "text">): string {
  const title = doc.title.trim();
  return title === "" ? doc.text : `${title}\n\n${doc.text}`;
}

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import { beirDocumentText, readBeirCorpus, readBeirQrels, readBeirQueries, type BeirDocument } from "../src/eval/beir.js";

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "beir-mini");

async function collect<T>(gen: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of gen) out.push(x);
  return out;
}

async function failure(p: Promise<unknown>): Promise<GroundkitError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(GroundkitError);
    return err as GroundkitError;
  }
  throw new Error("expected a failure");
}

describe("BEIR fixture", () => {
  it("streams the corpus with titles, a blank title and a missing title", async () => {
    const docs = await collect(readBeirCorpus(FIXTURE));
    expect(docs.map((d) => d._id)).toEqual(["d1", "d2", "d3", "d4", "d5", "d6"]);
    expect(docs[0]).toEqual({
      _id: "d1",
      title: "Aspirin and fever",
      text: "Aspirin lowers fever by inhibiting prostaglandin synthesis.",
    });
    expect(docs[2]!.title).toBe("");
    expect(docs[4]).toEqual({ _id: "d5", title: "", text: "Caffeine delays sleep onset when taken in the evening." });
    expect(docs[5]!.text).toContain("Ünïcode stays intact: 😀.");
  });

  it("streams the queries", async () => {
    const qs = await collect(readBeirQueries(FIXTURE));
    expect(qs.map((q) => q._id)).toEqual(["q1", "q2", "q3", "q4", "q5"]);
    expect(qs[0]).toEqual({ _id: "q1", text: "which drugs reduce fever" });
  });

  it("reads qrels: header skipped, CRLF tolerated, graded scores, 0 kept", async () => {
    const qrels = await readBeirQrels(FIXTURE, "test");
    expect([...qrels.keys()]).toEqual(["q1", "q2", "q3", "q5"]); // no "query-id" header entry
    expect([...qrels.get("q1")!]).toEqual([
      ["d1", 2],
      ["d2", 1], // the CRLF row: the score is 1, not NaN or "1\r"
      ["d3", 1],
    ]);
    expect(qrels.get("q2")!.get("d4")).toBe(2);
    expect(qrels.get("q2")!.get("d6")).toBe(0);
    expect(qrels.get("q5")).toEqual(new Map([["d2", 0]]));
  });
});

describe("BEIR reader errors", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "grk-beir-"));
    mkdirSync(path.join(dir, "qrels"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("names a missing file", async () => {
    const err = await failure(collect(readBeirCorpus(dir)));
    expect(err.code).toBe("DATASET_INVALID");
    expect(err.message).toContain("corpus.jsonl");
    expect((await failure(readBeirQrels(dir, "dev"))).message).toContain(path.join("qrels", "dev.tsv"));
  });

  it("rejects a non-integer score, a wrong column count and a bad split name", async () => {
    writeFileSync(path.join(dir, "qrels", "test.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0.5\n");
    let err = await failure(readBeirQrels(dir, "test"));
    expect(err.message).toMatch(/test\.tsv:3: score "0\.5" is not an integer/);
    writeFileSync(path.join(dir, "qrels", "test.tsv"), "query-id\tcorpus-id\tscore\nq1 0 d1 1\n");
    err = await failure(readBeirQrels(dir, "test"));
    expect(err.message).toMatch(/test\.tsv:2: expected 3 tab-separated columns/);
    err = await failure(readBeirQrels(dir, "../etc"));
    expect(err.code).toBe("INVALID_ARGUMENT");
  });

  it("rejects invalid JSON, a missing _id and invalid UTF-8 with the line number", async () => {
    writeFileSync(path.join(dir, "corpus.jsonl"), '{"_id": "a", "text": "ok"}\n{"_id": "b", "text": \n');
    expect((await failure(collect(readBeirCorpus(dir)))).message).toMatch(/corpus\.jsonl:2: invalid JSON/);
    writeFileSync(path.join(dir, "queries.jsonl"), '{"text": "no id"}\n');
    expect((await failure(collect(readBeirQueries(dir)))).message).toMatch(/queries\.jsonl:1: "_id"/);
    writeFileSync(path.join(dir, "corpus.jsonl"), Buffer.concat([Buffer.from('{"_id": "a", "text": "caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    expect((await failure(collect(readBeirCorpus(dir)))).message).toContain("not valid UTF-8");
  });

  it("accepts numeric ids, a BOM, CRLF corpus lines and multi-byte characters split across stream chunks", async () => {
    // Long lines force several 64 KiB read chunks; "é" and "😀" land on chunk boundaries somewhere.
    const body = "é😀".repeat(40_000);
    const lines = [`{"_id": 7, "title": "T", "text": "${body}"}`, `{"_id": "x", "text": "plain"}`];
    writeFileSync(path.join(dir, "corpus.jsonl"), "\uFEFF" + lines.join("\r\n") + "\r\n");
    const docs = await collect(readBeirCorpus(dir));
    expect(docs.map((d) => d._id)).toEqual(["7", "x"]);
    expect(docs[0]!.text).toBe(body);
    expect(docs[1]!.text).toBe("plain");
  });

  it("stops reading when the consumer stops early", async () => {
    const many = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ _id: `d${i}`, text: `text ${i}` })).join("\n");
    writeFileSync(path.join(dir, "corpus.jsonl"), many + "\n");
    const seen: string[] = [];
    for await (const d of readBeirCorpus(dir)) {
      seen.push(d._id);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(["d0", "d1", "d2"]);
  });
});

describe("beirDocumentText", () => {
  const doc = (title: string, text: string): BeirDocument => ({ _id: "1", title, text });
  it("puts the title on its own line, then a blank line, then the text", () => {
    expect(beirDocumentText(doc("Aspirin and fever", "Aspirin lowers fever."))).toBe("Aspirin and fever\n\nAspirin lowers fever.");
  });
  it("uses the text alone when there is no title", () => {
    expect(beirDocumentText(doc("", "Only text."))).toBe("Only text.");
    expect(beirDocumentText(doc("   ", "Only text."))).toBe("Only text.");
  });
});

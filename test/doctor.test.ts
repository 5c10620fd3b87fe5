/**
 * `grk doctor`: each check is tested by breaking exactly that thing in a real
 * collection (real SQLite file, real snapshot from a page served on
 * 127.0.0.1, real vectors from the tiny generated ONNX embedder) and
 * asserting doctor finds it, says what to do, and, where the fix is safe,
 * that `--repair` makes the collection healthy again.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readdirSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type OpenCollectionOptions } from "../src/collection/index.js";
import { doctorCollection, type DoctorReport } from "../src/collection/doctor.js";
import { closeEmbeddingProviders } from "../src/embed/binding.js";
import { deleteVectors, loadVectorExtension } from "../src/store/sqlite/vector-index.js";
import { grk, tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
let server: Server;
let pageUrl: string;
let models: string;
let counter = 0;

const DOCS: Record<string, string> = {
  "guides/backup.md": "# Backups\n\nNightly snapshots are copied to object storage and restored with the restore command.\n",
  "guides/tls.md": "# Certificates\n\nTLS certificates renew automatically thirty days before they expire.\n",
  "notes/people.txt": "The on-call engineer answers pages within five minutes.\n",
  "pages/cache.html": "<html><head><title>Cache</title></head><body><h1>Cache</h1><p>The cache evicts the least recently used entries.</p></body></html>",
};

beforeAll(async () => {
  work = tempDir("grk-doctor-");
  server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<html><body><h1>Lighthouse</h1><p>The keeper trims the wick at dusk.</p></body></html>");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/guide.html`;
  models = join(work.dir, "models");
  execFileSync(process.execPath, [join(process.cwd(), "scripts", "make-tiny-models.mjs"), models], { stdio: "pipe" });
});
afterAll(async () => {
  await closeEmbeddingProviders();
  await new Promise((r) => server.close(r));
  work.cleanup();
});

interface Fixture {
  root: string;
  docs: string;
  loc: OpenCollectionOptions;
  file: string;
}

/** A fresh collection of the documents above and one fetched page; `dense` embeds them with the tiny model. */
async function fixture(opts: { dense?: boolean } = {}): Promise<Fixture> {
  const root = join(work.dir, `case-${++counter}`);
  const docs = join(root, "docs");
  for (const [rel, text] of Object.entries(DOCS)) {
    mkdirSync(join(docs, rel, ".."), { recursive: true });
    writeFileSync(join(docs, rel), text);
  }
  const loc: OpenCollectionOptions = {
    indexDir: join(root, "idx"),
    collection: "kb",
    ...(opts.dense ? { embedding: { provider: "onnx", model_dir: join(models, "tiny-embedder") } } : {}),
  };
  const col = await openCollection({ ...loc, create: true });
  try {
    const summary = await col.ingest([docs, pageUrl], { allowPrivateNetwork: true, dense: opts.dense ?? false });
    expect(summary.failed).toEqual([]);
    expect(summary.indexed).toBe(5);
  } finally {
    await col.close();
  }
  return { root, docs, loc, file: join(root, "idx", "kb.sqlite3") };
}

function check(report: DoctorReport, name: string) {
  const found = report.checks.find((c) => c.name === name);
  expect(found, `check ${name}`).toBeDefined();
  return found!;
}

function problemChecks(report: DoctorReport): string[] {
  return report.checks.filter((c) => c.status === "problem").map((c) => c.name);
}

/** Run SQL on the collection file from outside groundkit (with sqlite-vec, for the vector table). */
function tamper(file: string, fn: (db: Database.Database) => void): void {
  const db = new Database(file);
  try {
    loadVectorExtension(db);
    fn(db);
  } finally {
    db.close();
  }
}

describe("grk doctor", () => {
  it("passes a healthy collection, every check ok, through the real CLI with --json and exit 0", async () => {
    const f = await fixture({ dense: true });
    const res = grk(["doctor", "--index-dir", f.loc.indexDir!, "--json"], { cwd: f.root });
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout) as { healthy: boolean; collections: DoctorReport[] };
    expect(out.healthy).toBe(true);
    expect(out.collections.map((c) => c.collection)).toEqual(["kb"]);
    const report = out.collections[0]!;
    expect(problemChecks(report)).toEqual([]);
    expect(report.checks.map((c) => c.name)).toEqual([
      "integrity",
      "schema",
      "chunks",
      "postings",
      "vectors",
      "vector-index",
      "embedding",
      "extractors",
      "snapshots",
      "history",
      "citations",
    ]);
    expect(report.sample.classes).toMatchObject({
      text: { sampled: 3, verified: 3, drift_rate: 0 },
      extracted: { sampled: 1, verified: 1 },
      snapshot: { sampled: 1, verified: 1 },
    });
  });

  it("finds a deleted snapshot (not repairable: it says to fetch the URL again)", async () => {
    const f = await fixture();
    const dir = join(f.loc.indexDir!, "kb.snapshots");
    for (const name of readdirSync(dir)) unlinkSync(join(dir, name));
    const report = await doctorCollection(f.loc);
    expect(problemChecks(report)).toEqual(["snapshots", "citations"]);
    const p = check(report, "snapshots").problems[0]!;
    expect(p.message).toContain("1 of 1 snapshot document(s) have no stored snapshot");
    expect(p.action).toContain(`grk ingest ${pageUrl}`);
    expect(p.repairable).toBe(false);
    expect(report.sample.classes.snapshot).toMatchObject({ sampled: 1, unresolvable: 1 });
    const repaired = await doctorCollection(f.loc, { repair: true });
    expect(repaired.healthy).toBe(false);
    expect(problemChecks(repaired)).toContain("snapshots");
  });

  it("finds an HNSW index that is not saved or lost its re-rank vectors file, and --repair saves it", async () => {
    const saved = process.env.GROUNDKIT_ANN_MIN_VECTORS;
    process.env.GROUNDKIT_ANN_MIN_VECTORS = "1"; // the graph even for these few vectors
    try {
      const f = await fixture({ dense: true });
      const annFiles = (suffix: string): string[] => readdirSync(f.loc.indexDir!).filter((n) => n.startsWith("kb.sqlite3+ann") && n.endsWith(suffix));
      expect(check(await doctorCollection(f.loc), "vector-index")).toMatchObject({ status: "ok", detail: expect.stringContaining("current") });
      for (const [broken, expected] of [
        [".vectors", "re-rank vectors file is missing"],
        ["+ann.json", "no HNSW index is saved"],
      ] as const) {
        for (const name of annFiles(broken)) unlinkSync(join(f.loc.indexDir!, name));
        const report = await doctorCollection(f.loc);
        expect(problemChecks(report)).toEqual(["vector-index"]);
        expect(check(report, "vector-index").problems[0]).toMatchObject({ message: expect.stringContaining(expected), repairable: true });
        const repaired = await doctorCollection(f.loc, { repair: true });
        expect(repaired.repairs).toContainEqual({ check: "vector-index", did: expect.stringContaining("saved the HNSW index") });
        expect(repaired.healthy).toBe(true);
        expect(annFiles(broken)).toHaveLength(1);
      }
    } finally {
      if (saved === undefined) delete process.env.GROUNDKIT_ANN_MIN_VECTORS;
      else process.env.GROUNDKIT_ANN_MIN_VECTORS = saved;
    }
  });

  it("finds an HNSW data file truncated or overwritten with other bytes, and a vectors file overwritten; --repair rebuilds them", async () => {
    const saved = process.env.GROUNDKIT_ANN_MIN_VECTORS;
    process.env.GROUNDKIT_ANN_MIN_VECTORS = "1"; // the graph even for these few vectors
    try {
      const f = await fixture({ dense: true });
      const annFile = (suffix: string): string => {
        const [name] = readdirSync(f.loc.indexDir!).filter((n) => /^kb\.sqlite3[+.]ann-/.test(n) && n.endsWith(suffix));
        return join(f.loc.indexDir!, name!);
      };
      /** Overwrite `path` in place with random bytes from `from` on, keeping its size (as `dd conv=notrunc` would). */
      const scramble = (path: string, from: number): void => {
        const size = statSync(path).size;
        const fd = openSync(path, "r+");
        writeSync(fd, randomBytes(size - from), 0, size - from, from);
        closeSync(fd);
      };
      for (const [damage, expected] of [
        [() => truncateSync(annFile(".usearch"), 1000), "not the"],
        [() => scramble(annFile(".usearch"), 0), "does not hold the bytes it was saved with"],
        [() => scramble(annFile(".vectors"), 16), "re-rank vectors file"],
      ] as const) {
        damage();
        const report = await doctorCollection(f.loc);
        expect(problemChecks(report)).toEqual(["vector-index"]);
        expect(check(report, "vector-index").problems.map((p) => p.message).join("\n")).toContain(expected);
        const repaired = await doctorCollection(f.loc, { repair: true });
        expect(repaired.repairs).toContainEqual({ check: "vector-index", did: expect.stringContaining("rebuilt the damaged HNSW index") });
        expect(repaired.healthy).toBe(true);
      }
    } finally {
      if (saved === undefined) delete process.env.GROUNDKIT_ANN_MIN_VECTORS;
      else process.env.GROUNDKIT_ANN_MIN_VECTORS = saved;
    }
  });

  it("finds a missing vector, and --repair embeds it with the recorded model", async () => {
    const f = await fixture({ dense: true });
    tamper(f.file, (db) => expect(deleteVectors(db, [db.prepare("SELECT min(id) FROM chunks").pluck().get() as number])).toBe(1));
    const report = await doctorCollection(f.loc);
    expect(problemChecks(report)).toEqual(["vectors"]);
    expect(check(report, "vectors").problems[0]).toMatchObject({ message: expect.stringContaining("1 chunk(s) have no vector"), repairable: true });
    const repaired = await doctorCollection(f.loc, { repair: true });
    expect(repaired.repairs).toContainEqual({ check: "vectors", did: "embedded 1 chunk(s) that had no vector" });
    expect(repaired.healthy).toBe(true);
  });

  it("finds a vector of no chunk, and --repair deletes it", async () => {
    const f = await fixture({ dense: true });
    tamper(f.file, (db) => {
      db.pragma("foreign_keys = OFF");
      db.prepare("DELETE FROM chunks WHERE id = (SELECT max(id) FROM chunks)").run();
    });
    const report = await doctorCollection(f.loc);
    expect(check(report, "vectors").problems.map((p) => p.message)).toContain("1 vector(s) belong to no chunk");
    const repaired = await doctorCollection(f.loc, { repair: true });
    expect(repaired.repairs.map((r) => r.check)).toEqual(expect.arrayContaining(["postings", "vectors"]));
    // The document that lost its chunk is marked for re-indexing, and the next ingest restores it.
    expect(problemChecks(repaired)).toEqual(["chunks"]);
    expect(check(repaired, "chunks").problems[0]!.action).toContain("grk ingest");
    const col = await openCollection(f.loc);
    try {
      await col.ingest([f.docs, pageUrl], { allowPrivateNetwork: true, dense: true });
    } finally {
      await col.close();
    }
    expect((await doctorCollection(f.loc)).healthy).toBe(true);
  });

  it("finds a recorded embedding identity that no longer loads", async () => {
    const f = await fixture({ dense: true });
    rmSync(join(models, "tiny-embedder"), { recursive: true, force: true });
    try {
      await closeEmbeddingProviders();
      const report = await doctorCollection({ ...f.loc, embedding: undefined });
      expect(problemChecks(report)).toEqual(["embedding"]);
      expect(check(report, "embedding").problems[0]!.action).toContain("grk reembed");
    } finally {
      execFileSync(process.execPath, [join(process.cwd(), "scripts", "make-tiny-models.mjs"), models], { stdio: "pipe" });
    }
  });

  it("finds an extractor identity that is no longer active", async () => {
    const f = await fixture();
    tamper(f.file, (db) => db.prepare("UPDATE documents SET extractor = 'htmlparser2/0.0.1' WHERE source_class = 'extracted'").run());
    const report = await doctorCollection(f.loc);
    expect(problemChecks(report)).toEqual(["extractors", "citations"]);
    const p = check(report, "extractors").problems[0]!;
    expect(p.message).toContain("1 document(s) were extracted by htmlparser2/0.0.1, which is not active");
    expect(p.action).toContain(`grk ingest ${f.docs}`);
  });

  it("finds a corrupted page of the SQLite file through the real CLI (exit 1), and --repair refuses to touch it", async () => {
    const f = await fixture();
    let page = 0;
    let pageSize = 0;
    tamper(f.file, (db) => {
      page = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'chunks'").pluck().get() as number;
      pageSize = db.pragma("page_size", { simple: true }) as number;
    });
    const fd = openSync(f.file, "r+");
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (page - 1) * pageSize);
    closeSync(fd);
    const res = grk(["doctor", "--index-dir", f.loc.indexDir!, "--collection", "kb"], { cwd: f.root });
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/problem\s+integrity/);
    expect(res.stdout).toContain("SQLite integrity_check:");
    expect(res.stdout).toContain("do: The file is damaged");
    const repaired = await doctorCollection(f.loc, { repair: true });
    expect(repaired.repairs).toEqual([{ check: "integrity", did: expect.stringContaining("repaired nothing") }]);
    expect(check(repaired, "integrity").status).toBe("problem");
  });

  it("reports a source edited since ingest as drift in the sample, with the drift rate", async () => {
    const f = await fixture();
    writeFileSync(join(f.docs, "guides/tls.md"), "# Certificates\n\nCertificates are renewed by hand every year.\n");
    const report = await doctorCollection(f.loc, { sample: 10 });
    expect(problemChecks(report)).toEqual(["citations"]);
    expect(report.sample.classes.text).toEqual({ sampled: 3, verified: 2, drifted: 1, unresolvable: 0, drift_rate: 1 / 3 });
    const p = check(report, "citations").problems[0]!;
    expect(p.message).toContain("1 of 3 sampled text citation(s) drifted (33.3%)");
    expect(p.message).toContain("tls.md");
    expect(p.action).toContain(`grk ingest ${f.docs} --collection kb`);
  });

  it("finds postings that are not current, and --repair rebuilds them (search finds the chunk again)", async () => {
    const f = await fixture();
    tamper(f.file, (db) => db.prepare("DELETE FROM bm25_pending WHERE doc = (SELECT min(doc) FROM bm25_pending)").run());
    const report = await doctorCollection(f.loc);
    expect(problemChecks(report)).toEqual(["postings"]);
    expect(check(report, "postings").problems[0]).toMatchObject({ message: expect.stringContaining("1 chunk(s) not indexed"), repairable: true });
    const repaired = await doctorCollection(f.loc, { repair: true });
    expect(repaired.repairs).toEqual([{ check: "postings", did: "rebuilt the BM25 postings from 5 chunk(s)" }]);
    expect(repaired.healthy).toBe(true);
    const col = await openCollection(f.loc);
    try {
      expect((await col.search("nightly snapshots object storage")).map((h) => h.citation.source)).toContain(join(f.docs, "guides/backup.md"));
    } finally {
      await col.close();
    }
  });

  it("finds a chunk that disagrees with its document; --repair marks it for re-indexing and ingest restores it", async () => {
    const f = await fixture();
    tamper(f.file, (db) => db.prepare("UPDATE chunks SET text = 'tampered' WHERE ordinal = 0 AND doc_id = (SELECT min(id) FROM documents)").run());
    const report = await doctorCollection(f.loc, { sample: 0 });
    expect(problemChecks(report)).toEqual(["chunks"]);
    expect(check(report, "chunks").problems[0]).toMatchObject({ repairable: true, message: expect.stringContaining("is not as long as its span") });
    const repaired = await doctorCollection(f.loc, { repair: true, sample: 0 });
    expect(repaired.repairs.find((r) => r.check === "chunks")?.did).toContain("marked 1 document(s)");
    expect(check(repaired, "chunks").problems[0]).toMatchObject({ repairable: false, action: expect.stringContaining("marked for re-indexing") });
    const col = await openCollection(f.loc);
    try {
      expect((await col.ingest([f.docs])).indexed).toBe(1);
    } finally {
      await col.close();
    }
    expect((await doctorCollection(f.loc)).healthy).toBe(true);
  });

  it("finds a file in the snapshots folder that belongs to no document, and --repair removes it", async () => {
    const f = await fixture();
    writeFileSync(join(f.loc.indexDir!, "kb.snapshots", "0".repeat(32)), "left behind");
    const report = await doctorCollection(f.loc);
    expect(problemChecks(report)).toEqual(["snapshots"]);
    const repaired = await doctorCollection(f.loc, { repair: true });
    expect(repaired.repairs).toEqual([{ check: "snapshots", did: "removed 1 file(s) that belonged to no snapshot document" }]);
    expect(repaired.healthy).toBe(true);
  });

  it("finds a schema version this build does not check, and says what to do for each", async () => {
    const f = await fixture();
    tamper(f.file, (db) => db.pragma("user_version = 99"));
    const newer = await doctorCollection(f.loc);
    expect(problemChecks(newer)).toEqual(["schema"]);
    expect(check(newer, "schema").problems[0]).toMatchObject({ action: "Upgrade groundkit.", repairable: false });
    expect(check(newer, "rows").status).toBe("skipped");
    expect((await doctorCollection(f.loc, { repair: true })).repairs).toEqual([
      { check: "schema", did: expect.stringContaining("repaired nothing") },
    ]);
    tamper(f.file, (db) => db.pragma("user_version = 1"));
    const older = await doctorCollection(f.loc);
    expect(check(older, "schema").problems[0]).toMatchObject({ message: expect.stringContaining("older"), repairable: true });
  });

  it("leaves the file untouched without --repair", async () => {
    const f = await fixture();
    tamper(f.file, (db) => db.prepare("DELETE FROM bm25_pending WHERE doc = (SELECT min(doc) FROM bm25_pending)").run());
    await doctorCollection(f.loc);
    await doctorCollection(f.loc);
    expect(problemChecks(await doctorCollection(f.loc))).toEqual(["postings"]);
  });
});

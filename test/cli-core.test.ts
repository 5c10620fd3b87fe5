/**
 * The spine end to end through the real CLI: ingest, incremental re-ingest,
 * search with verification, drift, pruning, refusals, status and collections.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { grk, tempDir } from "./support/cli.js";

interface Hit {
  chunk_id: string;
  text: string;
  citation: { source: string; start_offset: number; end_offset: number; source_class: string; text_hash: string };
  verification?: { verdict: string; detail: string };
}

let work: { dir: string; cleanup: () => void };
let docs: string;

function writeDocs(): void {
  docs = join(work.dir, "docs");
  mkdirSync(join(docs, "guides"), { recursive: true });
  writeFileSync(
    join(docs, "citations.md"),
    "# Citations\n\nEvery passage carries a citation with exact offsets.\n\n## Verification\n\nA citation is checked by re-reading the source and comparing the hash of the cited text.\n",
  );
  writeFileSync(join(docs, "guides", "install.md"), "# Install\n\nRun npm ci to install the engine on Linux and macOS.\n");
  writeFileSync(join(docs, "notes.txt"), "Plain text notes about backups and snapshots.\r\nSecond line with CRLF.\r\n");
}

function search(query: string, extra: string[] = []): Hit[] {
  const res = grk(["search", query, "--json", ...extra], { cwd: work.dir });
  expect(res.stderr).toBe("");
  expect(res.code).toBe(0);
  return (JSON.parse(res.stdout) as { results: Hit[] }).results;
}

beforeEach(() => {
  work = tempDir();
  writeDocs();
});
afterEach(() => work.cleanup());

describe("grk ingest", () => {
  it("indexes a folder, then reports everything unchanged on the second run", () => {
    const first = grk(["ingest", "docs", "--json"], { cwd: work.dir });
    expect(first.code).toBe(0);
    const s1 = JSON.parse(first.stdout);
    expect(s1).toMatchObject({ files_seen: 3, indexed: 3, unchanged: 0, removed: 0, failed: [] });
    expect(s1.chunks_written).toBeGreaterThanOrEqual(3);

    const second = JSON.parse(grk(["ingest", "docs", "--json"], { cwd: work.dir }).stdout);
    expect(second).toMatchObject({ files_seen: 3, indexed: 0, unchanged: 3, removed: 0, chunks_written: 0 });
  });

  it("creates the index dir 0700 and the file 0600", () => {
    grk(["ingest", "docs"], { cwd: work.dir });
    expect(statSync(join(work.dir, ".groundkit")).mode & 0o777).toBe(0o700);
    expect(statSync(join(work.dir, ".groundkit", "default.sqlite3")).mode & 0o777).toBe(0o600);
  });

  it("refuses binary, oversized and invalid UTF-8 files by name and indexes the rest (exit 1)", () => {
    writeFileSync(join(docs, "binary.md"), Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02]));
    writeFileSync(join(docs, "huge.md"), Buffer.alloc(20 * 1024 * 1024, 0x61));
    writeFileSync(join(docs, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    writeFileSync(join(docs, "empty.md"), "  \n\n ");
    const res = grk(["ingest", "docs", "--json"], { cwd: work.dir });
    expect(res.code).toBe(1);
    const s = JSON.parse(res.stdout);
    expect(s.indexed).toBe(3);
    const byName = Object.fromEntries(
      (s.failed as Array<{ source: string; code: string; message: string }>).map((f) => [f.source.split("/").pop(), f]),
    );
    expect(byName["binary.md"]?.code).toBe("FILE_BINARY");
    expect(byName["huge.md"]?.code).toBe("FILE_TOO_LARGE");
    expect(byName["latin1.txt"]?.code).toBe("FILE_NOT_UTF8");
    expect(byName["latin1.txt"]?.message).toContain("offset 3");
    expect(s.skipped).toEqual([{ source: join(docs, "empty.md"), reason: "empty or whitespace-only" }]);
  });

  it("keeps the previous state of a file that fails on re-ingest", () => {
    grk(["ingest", "docs"], { cwd: work.dir });
    writeFileSync(join(docs, "guides", "install.md"), Buffer.from([0xff, 0xfe, 0x00]));
    const res = grk(["ingest", "docs", "--json"], { cwd: work.dir });
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).removed).toBe(0);
    expect(search("npm ci install engine").length).toBeGreaterThan(0);
  });

  it("honours .gitignore, hidden folders and --exclude", () => {
    writeFileSync(join(docs, ".gitignore"), "ignored.md\n");
    writeFileSync(join(docs, "ignored.md"), "# Ignored\n\nzebra\n");
    mkdirSync(join(docs, ".hidden"));
    writeFileSync(join(docs, ".hidden", "secret.md"), "# Hidden\n\nzebra\n");
    const s = JSON.parse(grk(["ingest", "docs", "--json", "--exclude", "notes.txt"], { cwd: work.dir }).stdout);
    expect(s.indexed).toBe(2);
    expect(search("zebra")).toEqual([]);
  });
});

describe("grk search and verification", () => {
  beforeEach(() => {
    expect(grk(["ingest", "docs"], { cwd: work.dir }).code).toBe(0);
  });

  it("returns cited, verified hits", () => {
    const hits = search("how are citations checked", ["--verify"]);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]!.citation.source).toBe(join(docs, "citations.md"));
    for (const h of hits) {
      expect(h.verification?.verdict).toBe("verified");
      const content = readFileSync(h.citation.source, "utf8").replace(/\r\n?/g, "\n");
      expect(Array.from(content).slice(h.citation.start_offset, h.citation.end_offset).join("")).toBe(h.text);
    }
  });

  it("verifies CRLF text after normalization", () => {
    const hits = search("backups snapshots", ["--verify"]);
    expect(hits[0]!.citation.source).toBe(join(docs, "notes.txt"));
    expect(hits[0]!.verification?.verdict).toBe("verified");
  });

  it("reports drifted with the new location when the file is edited, and unresolvable once deleted and pruned", () => {
    const [hit] = search("re-reading the source hash");
    writeFileSync(join(work.dir, "hit.json"), JSON.stringify(hit));
    expect(grk(["verify", "hit.json", "--json"], { cwd: work.dir }).code).toBe(0);

    const file = join(docs, "citations.md");
    writeFileSync(file, "Preface added above.\n\n" + readFileSync(file, "utf8"));
    const drifted = grk(["verify", "hit.json", "--json"], { cwd: work.dir });
    expect(drifted.code).toBe(1);
    const v = JSON.parse(drifted.stdout);
    expect(v.verdict).toBe("drifted");
    expect(v.detail).toMatch(/now sits at code points 22-/);

    rmSync(file);
    const ingest = JSON.parse(grk(["ingest", "docs", "--json"], { cwd: work.dir }).stdout);
    expect(ingest.removed).toBe(1);
    expect(search("re-reading the source hash").map((h) => h.citation.source)).not.toContain(file);
    const gone = JSON.parse(grk(["verify", "hit.json", "--json"], { cwd: work.dir }).stdout);
    expect(gone.verdict).toBe("unresolvable");
    // Pruned from the index: its citation names no indexed document any more, so nothing is read.
    expect(gone.detail).toMatch(/is not in collection 'default'/);
  });

  it("catches a same-length edit", () => {
    const [hit] = search("npm ci install engine");
    const file = join(docs, "guides", "install.md");
    writeFileSync(file, readFileSync(file, "utf8").replace("Linux", "Lunix"));
    const v = JSON.parse(grk(["verify", "-", "--json"], { cwd: work.dir, input: JSON.stringify(hit) }).stdout);
    expect(v.verdict).toBe("drifted");
  });

  it("reads a whole search --json output from stdin", () => {
    const out = grk(["search", "citation", "--json"], { cwd: work.dir }).stdout;
    const res = grk(["verify", "-", "--json"], { cwd: work.dir, input: out });
    expect(res.code).toBe(0);
    const list = JSON.parse(res.stdout);
    expect(Array.isArray(list) ? list.every((r: { verdict: string }) => r.verdict === "verified") : list.verdict).toBeTruthy();
  });

  it("show prints a chunk with a fresh verdict", () => {
    const [hit] = search("npm ci install engine");
    const view = JSON.parse(grk(["show", hit!.chunk_id, "--json"], { cwd: work.dir }).stdout);
    expect(view.verification.verdict).toBe("verified");
    expect(view.text).toBe(hit!.text);
    const missing = grk(["show", "nope"], { cwd: work.dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error\[CHUNK_NOT_FOUND\]/);
  });

  it("treats FTS syntax as text and never crashes", () => {
    for (const q of ['"unbalanced', "citation AND OR NOT", "NEAR(citation source)", "cita*", "^source", "text: citation", "((((", "-", "!!!".repeat(1365)]) {
      const res = grk(["search", q, "--json"], { cwd: work.dir });
      expect(res.code, q).toBe(0);
      expect(res.stderr).toBe("");
    }
    expect(search("text: citation").length).toBeGreaterThan(0);
  });

  it("rejects an empty query with a code and a hint, no stack trace", () => {
    const res = grk(["search", "   "], { cwd: work.dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error\[QUERY_EMPTY\]: .*\nhint: /);
    expect(res.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it("abstains when no query term occurs", () => {
    expect(search("xylophone quasar")).toEqual([]);
  });

  it("uses exit 2 for usage errors", () => {
    expect(grk(["search", "x", "--top-k", "0"], { cwd: work.dir }).code).toBe(2);
    expect(grk(["frobnicate"], { cwd: work.dir }).code).toBe(2);
  });
});

describe("grk status and collections", () => {
  it("reports counts and deletes a collection entirely", () => {
    grk(["ingest", "docs", "--collection", "handbook"], { cwd: work.dir });
    const st = JSON.parse(grk(["status", "--collection", "handbook", "--json"], { cwd: work.dir }).stdout);
    expect(st).toMatchObject({ collection: "handbook", documents: 3, schema_version: 5 });
    expect(st.last_ingest_at).toMatch(/^\d{4}-/);
    const list = JSON.parse(grk(["collections", "--json"], { cwd: work.dir }).stdout);
    expect(list.collections.map((c: { name: string }) => c.name)).toEqual(["handbook"]);
    expect(grk(["collections", "delete", "handbook", "--yes"], { cwd: work.dir }).code).toBe(0);
    expect(JSON.parse(grk(["collections", "--json"], { cwd: work.dir }).stdout).collections).toEqual([]);
    const missing = grk(["status", "--collection", "handbook"], { cwd: work.dir });
    expect(missing.stderr).toMatch(/^error\[COLLECTION_NOT_FOUND\]/);
  });

  it("refuses a traversal collection name", () => {
    const res = grk(["status", "--collection", "../etc"], { cwd: work.dir });
    expect(res.stderr).toMatch(/^error\[INVALID_COLLECTION_NAME\]/);
  });

  it("refuses a foreign SQLite file and a non-SQLite file, leaving them byte-identical", async () => {
    const { default: Database } = await import("better-sqlite3");
    mkdirSync(join(work.dir, ".groundkit"));
    const foreign = join(work.dir, ".groundkit", "default.sqlite3");
    const db = new Database(foreign);
    db.exec("CREATE TABLE t(x); INSERT INTO t VALUES (1);");
    db.close();
    const before = readFileSync(foreign);
    const res = grk(["ingest", "docs"], { cwd: work.dir });
    expect(res.stderr).toMatch(/^error\[STORE_FOREIGN\]/);
    expect(readFileSync(foreign).equals(before)).toBe(true);

    writeFileSync(foreign, "not a database at all, just text\n".repeat(200));
    const junk = readFileSync(foreign);
    expect(grk(["search", "x"], { cwd: work.dir }).stderr).toMatch(/^error\[STORE_FOREIGN\]/);
    expect(readFileSync(foreign).equals(junk)).toBe(true);
  });

  it("refuses a newer schema version", async () => {
    grk(["ingest", "docs"], { cwd: work.dir });
    const { default: Database } = await import("better-sqlite3");
    const file = join(work.dir, ".groundkit", "default.sqlite3");
    const db = new Database(file);
    db.pragma("user_version = 99");
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    const before = readFileSync(file);
    expect(grk(["status"], { cwd: work.dir }).stderr).toMatch(/^error\[STORE_NEWER\]/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it("refuses a symlink escaping the base dir by name", async () => {
    const { symlinkSync } = await import("node:fs");
    const outside = join(work.dir, "outside.md");
    writeFileSync(outside, "# Outside\n\nsecret text\n");
    symlinkSync(outside, join(docs, "escape.md"));
    const s = JSON.parse(grk(["ingest", "docs", "--json"], { cwd: work.dir }).stdout);
    expect(s.failed).toEqual([expect.objectContaining({ source: join(docs, "escape.md"), code: "PATH_ESCAPES_BASE" })]);
    chmodSync(outside, 0o644);
  });
});

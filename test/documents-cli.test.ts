/**
 * Documents, not only chunks, through the real CLI: `grk get` (a line range
 * with a citation that `grk verify` accepts), `grk ls` (paged), short ids
 * (unique and ambiguous), recorded roots with `grk update`, `grk rm` by path,
 * and search across collections.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WriterLock } from "../src/store/sqlite/writer-lock.js";
import { grk, tempDir } from "./support/cli.js";

let dir: string;
let cleanup: () => void;

beforeEach(() => {
  ({ dir, cleanup } = tempDir("grk-docs-"));
  mkdirSync(join(dir, "docs", "guides"), { recursive: true });
  writeFileSync(join(dir, "docs", "intro.md"), "# Intro\n\nline three about keys\nline four 😀 rotate the key\n\nline six\n");
  writeFileSync(join(dir, "docs", "guides", "keys.md"), "# Keys\n\nRotate the signing key every month.\n");
});
afterEach(() => cleanup());

function run(args: string[]) {
  return grk(args, { cwd: dir });
}

function json(args: string[]): Record<string, unknown> {
  const res = run([...args, "--json"]);
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as Record<string, unknown>;
}

type Citation = { start_line: number; end_line: number; start_offset: number; end_offset: number; text_hash: string };

describe("grk get", () => {
  it("prints a line range of the indexed text with a citation grk verify accepts", () => {
    expect(run(["ingest", "docs"]).code).toBe(0);
    const view = json(["get", "docs/intro.md:3-4"]);
    expect(view).toMatchObject({ start_line: 3, end_line: 4, total_lines: 7, truncated: false, text: "line three about keys\nline four 😀 rotate the key" });
    const citation = view.citation as Citation;
    expect(citation).toMatchObject({ start_line: 3, end_line: 4, start_offset: 9 });
    // Code points, not UTF-16 units: the emoji counts once.
    expect(citation.end_offset - citation.start_offset).toBe([...(view.text as string)].length);
    writeFileSync(join(dir, "cite.json"), JSON.stringify(citation));
    const verified = run(["verify", "cite.json", "--json"]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ verdict: "verified" });
    // The human form names the range and that it was read back as indexed.
    const text = run(["get", "docs/intro.md:3"]);
    expect(text.stdout).toContain("docs/intro.md:3-3  [verified]");
    expect(text.stdout).toContain("line three about keys");
  });

  it("bounds the size: a long range stops at the last whole line and says where to continue", () => {
    run(["ingest", "docs"]);
    const view = json(["get", join(dir, "docs", "intro.md"), "--max-chars", "30"]);
    expect(view).toMatchObject({ start_line: 1, end_line: 3, truncated: true, next_line: 4 });
    expect([...(view.text as string)].length).toBeLessThanOrEqual(30);
    expect(run(["get", "docs/intro.md", "--max-chars", "0"]).code).toBe(2);
  });

  it("accepts a unique id prefix and refuses an ambiguous one, listing the candidates", () => {
    // Two file names whose document ids share their first 6 hex digits (found by hashing, as ids are made).
    const [a, b] = collidingNames(join(dir, "many"));
    mkdirSync(join(dir, "many"));
    writeFileSync(join(dir, "many", a), "alpha words\n");
    writeFileSync(join(dir, "many", b), "beta words\n");
    run(["ingest", "many"]);
    const ids = (json(["ls"]).documents as Array<{ document_id: string; source: string }>).map((d) => d.document_id);
    const shared = ids[0]!.slice(0, 6);
    expect(ids[1]!.slice(0, 6)).toBe(shared);
    const ambiguous = run(["get", shared]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain("error[AMBIGUOUS_ID]");
    for (const id of ids) expect(ambiguous.stderr).toContain(id);
    const unique = json(["get", ids[0]!.slice(0, 12)]);
    expect(unique.document_id).toBe(ids[0]);
    // The same prefixes work for chunks in grk show.
    const hit = (json(["search", "alpha"]).results as Array<{ chunk_id: string }>)[0]!;
    expect(json(["show", hit.chunk_id.slice(0, 8)]).chunk_id).toBe(hit.chunk_id);
  });

  it("refuses to serve a document whose source changed since ingest (typed error, no stale lines)", () => {
    run(["ingest", "docs"]);
    writeFileSync(join(dir, "docs", "intro.md"), "# Intro\n\nsomething else entirely\n");
    const res = run(["get", "docs/intro.md:1-2"]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("error[DOCUMENT_UNAVAILABLE]");
    expect(res.stderr).toContain("grk update");
    expect(run(["get", "docs/missing.md"]).stderr).toContain("error[DOCUMENT_NOT_FOUND]");
  });
});

describe("grk ls", () => {
  it("lists documents with class, chunks and ingest time, a page at a time", () => {
    writeFileSync(join(dir, "docs", "notes.txt"), "plain notes\n");
    run(["ingest", "docs"]);
    const first = json(["ls", "--limit", "2"]);
    const docs = first.documents as Array<{ source: string; source_class: string; chunks: number; ingested_at: string }>;
    expect(docs.map((d) => d.source)).toEqual([join(dir, "docs", "guides", "keys.md"), join(dir, "docs", "intro.md")]);
    expect(docs[0]).toMatchObject({ source_class: "text", chunks: 1, ingested_at: expect.stringMatching(/^\d{4}-/) });
    expect(first.next_after).toBe(join(dir, "docs", "intro.md"));
    const second = json(["ls", "--limit", "2", "--after", first.next_after as string]);
    expect((second.documents as Array<{ source: string }>).map((d) => d.source)).toEqual([join(dir, "docs", "notes.txt")]);
    expect(second.next_after).toBeNull();
    const guides = json(["ls", "docs/guides/"]);
    expect((guides.documents as unknown[]).length).toBe(1);
    const text = run(["ls", "--limit", "1"]).stdout;
    expect(text).toContain("docs/guides/keys.md");
    expect(text).toContain("more: grk ls --limit 1 --after");
  });
});

describe("recorded roots, grk update and grk rm", () => {
  it("records each root with its include/exclude and re-ingests them all on update", () => {
    expect(run(["ingest", "docs", "--include", "*.md", "--exclude", "drafts"]).code).toBe(0);
    const roots = json(["status"]).roots as Array<Record<string, unknown>>;
    expect(roots).toEqual([expect.objectContaining({ source: join(dir, "docs"), kind: "path", include: ["*.md"], exclude: ["drafts"] })]);
    mkdirSync(join(dir, "docs", "drafts"));
    writeFileSync(join(dir, "docs", "guides", "new.md"), "# New\n\nfreshly written guide\n");
    writeFileSync(join(dir, "docs", "drafts", "wip.md"), "# WIP\n\nfreshly drafted\n");
    writeFileSync(join(dir, "docs", "skip.txt"), "freshly typed text\n");
    const updated = json(["update"]);
    const [summary] = updated.collections as Array<Record<string, unknown>>;
    expect(summary).toMatchObject({ collection: "default", roots: 1, indexed: 1, unchanged: 2 });
    const sources = (json(["ls"]).documents as Array<{ source: string }>).map((d) => d.source);
    expect(sources).toContain(join(dir, "docs", "guides", "new.md"));
    expect(sources).not.toContain(join(dir, "docs", "drafts", "wip.md"));
    expect(sources).not.toContain(join(dir, "docs", "skip.txt"));
  });

  it("updates every collection with --all", () => {
    run(["ingest", "docs/guides", "--collection", "a"]);
    run(["ingest", "docs/intro.md", "--collection", "b"]);
    writeFileSync(join(dir, "docs", "guides", "keys.md"), "# Keys\n\nRotate the signing key every week.\n");
    writeFileSync(join(dir, "docs", "intro.md"), "# Intro\n\nchanged intro\n");
    const out = json(["update", "--all"]);
    expect((out.collections as Array<Record<string, unknown>>).map((c) => [c.collection, c.indexed])).toEqual([
      ["a", 1],
      ["b", 1],
    ]);
    expect(run(["update", "--all", "--collection", "a"]).code).toBe(2);
  });

  it("removes documents by path (a file, a folder) under the writer lock and forgets a removed root", () => {
    writeFileSync(join(dir, "docs", "notes.txt"), "plain notes\n");
    run(["ingest", "docs"]);
    const one = json(["rm", "docs/notes.txt"]);
    expect(one).toMatchObject({ removed: [{ source: join(dir, "docs", "notes.txt") }], not_found: [] });
    const folder = json(["rm", join(dir, "docs", "guides")]);
    expect((folder.removed as unknown[]).length).toBe(1);
    expect((json(["ls"]).documents as Array<{ source: string }>).map((d) => d.source)).toEqual([join(dir, "docs", "intro.md")]);
    // rm is a writer: while another writer holds the collection it waits, then gives up with COLLECTION_BUSY.
    const lock = WriterLock.acquireNow(WriterLock.pathFor(join(dir, ".groundkit", "default.sqlite3")), { collection: "default", operation: "ingest" });
    try {
      const busy = run(["rm", "docs/intro.md", "--lock-timeout", "0"]);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain("error[COLLECTION_BUSY]");
    } finally {
      lock.release();
    }
    expect((json(["ls"]).documents as unknown[]).length).toBe(1);
    const root = json(["rm", "docs"]);
    expect(root.roots_forgotten).toEqual([join(dir, "docs")]);
    expect(json(["status"]).roots).toEqual([]);
    const missing = run(["rm", "docs/nothing.md"]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain("not in collection 'default'");
  });
});

describe("search across collections", () => {
  it("fuses by rank, labels each hit with its collection, and takes --collection a,b or --all-collections", () => {
    run(["ingest", "docs/guides", "--collection", "keys"]);
    run(["ingest", "docs/intro.md", "--collection", "intro"]);
    const both = json(["search", "rotate key", "--collection", "keys,intro"]);
    expect(both.collections).toEqual(["keys", "intro"]);
    const hits = both.results as Array<{ collection: string; collection_rank: number; rank: number; score: number }>;
    expect(hits.map((h) => h.collection).sort()).toEqual(["intro", "keys"]);
    expect(hits.map((h) => h.collection_rank)).toEqual([1, 1]);
    expect(hits.map((h) => h.rank)).toEqual([1, 2]);
    expect(hits[0]!.score).toBeCloseTo(1 / 61, 10);
    const all = json(["search", "rotate key", "--all-collections", "--verify"]);
    expect(all.collections).toEqual(["intro", "keys"]);
    for (const h of all.results as Array<{ verification: { verdict: string } }>) expect(h.verification.verdict).toBe("verified");
    expect(run(["search", "rotate", "--collection", "keys,nope"]).stderr).toContain("error[COLLECTION_NOT_FOUND]");
    expect(run(["search", "rotate", "--collection", "keys", "--all-collections"]).code).toBe(2);
    expect(run(["search", "rotate key", "--collection", "keys,intro"]).stdout).toMatch(/\((keys|intro) #1\)/);
  });
});

/** Two file names (`n<i>.md`) under `folder` whose document ids share their first 6 hex digits. */
function collidingNames(folder: string): [string, string] {
  const seen = new Map<string, string>();
  for (let i = 0; ; i++) {
    const name = `n${i}.md`;
    const id = createHash("sha256").update(`document\0${join(folder, name)}`).digest("hex").slice(0, 6);
    const other = seen.get(id);
    if (other) return [other, name];
    seen.set(id, name);
  }
}

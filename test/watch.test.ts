/**
 * Watch, driven by real file-system events on a real folder: `grk serve
 * --watch` reflects an edited (saved the way editors do: temp file, then
 * rename), an added and a deleted file in search within 2 seconds; a real
 * `git checkout` of 2,000 files lands in one batch; ignored files are never
 * indexed; the watched folder may be deleted and re-created; SIGTERM stops
 * the process cleanly. Deadlines are poll deadlines, never timing assertions.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WriterLock } from "../src/store/sqlite/writer-lock.js";
import { CLI, grk, grkServe, tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(() => {
  work = tempDir("grk-watch-");
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
});
afterAll(() => work.cleanup());

/** Poll `probe` until it returns true or `ms` pass; returns whether it did. */
async function eventually(probe: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  for (;;) {
    if (await probe()) return true;
    if (performance.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function sources(url: string, query: string): Promise<string[]> {
  const res = await fetch(`${url}/v1/search`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, top_k: 20 }),
  });
  const body = (await res.json()) as { results?: Array<{ citation: { source: string } }> };
  return (body.results ?? []).map((h) => h.citation.source);
}

/** Start `grk ingest --watch` and collect its stderr lines. */
function ingestWatch(args: string[], cwd: string): { child: ChildProcessWithoutNullStreams; log: () => string[] } {
  const child = spawn(process.execPath, [CLI, "ingest", "--watch", ...args], { cwd, env: { PATH: process.env.PATH ?? "" } });
  children.push(child);
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return { child, log: () => stderr.split("\n").filter(Boolean) };
}

/** The line each batch ends with: the initial scan's, then one per batch of changes. */
function batchLines(lines: string[]): string[] {
  return lines.filter((l) => l.includes("watch: batch of") || l.includes("watch: initial scan"));
}

describe("grk serve --watch", () => {
  it("reflects an edited (atomic save), an added and a deleted file in search within 2 seconds", async () => {
    const root = join(work.dir, "serve");
    const docs = join(root, "docs");
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(docs, "edited.md"), "# Lighthouse\n\nThe keeper trims the wick at dusk.\n");
    writeFileSync(join(docs, "deleted.md"), "# Foghorn\n\nThe foghorn sounds every thirty seconds.\n");
    const { url, child } = await grkServe(["--port", "0", "--index-dir", join(root, "idx"), "--watch", docs], { cwd: root });
    children.push(child);
    // Start-up: the first batch indexes what is there (not the timed part).
    expect(await eventually(async () => (await sources(url, "foghorn")).length > 0, 20_000)).toBe(true);

    // An editor's save: write a temp file beside it, then rename it over the original.
    writeFileSync(join(docs, ".edited.md.swp"), "# Lighthouse\n\nThe keeper polishes the lens at dawn.\n");
    renameSync(join(docs, ".edited.md.swp"), join(docs, "edited.md"));
    writeFileSync(join(docs, "added.md"), "# Harbour\n\nThe harbour master logs every arrival.\n");
    unlinkSync(join(docs, "deleted.md"));

    const reflected = await eventually(async () => {
      const [lens, wick, harbour, foghorn] = await Promise.all(
        ["polishes lens", "trims wick", "harbour master", "foghorn"].map((q) => sources(url, q)),
      );
      return (
        lens!.includes(join(docs, "edited.md")) &&
        !wick!.includes(join(docs, "edited.md")) &&
        harbour!.includes(join(docs, "added.md")) &&
        foghorn!.length === 0
      );
    }, 2_000);
    expect(reflected).toBe(true);

    child.kill("SIGTERM");
    const code = await new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
    expect(code).toBe(0);
  });
});

describe("grk ingest --watch", () => {
  it("lands a 2,000-file git checkout in one batch, and honours ignore rules", async () => {
    const root = join(work.dir, "checkout");
    const repo = join(root, "repo");
    mkdirSync(repo, { recursive: true });
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: repo, stdio: "pipe" });
    git("init", "-q", "-b", "main");
    writeFileSync(join(repo, ".gitignore"), "build/\n");
    writeFileSync(join(repo, "README.md"), "# Readme\n\nThe main branch.\n");
    git("add", ".");
    git("commit", "-q", "-m", "main");
    git("checkout", "-q", "-b", "wide");
    for (let d = 0; d < 20; d++) {
      mkdirSync(join(repo, "pages", `part${d}`), { recursive: true });
      for (let i = 0; i < 100; i++) {
        writeFileSync(join(repo, "pages", `part${d}`, `page${i}.md`), `# Page ${d}-${i}\n\nAbout topic number ${d * 100 + i}.\n`);
      }
    }
    git("add", ".");
    git("commit", "-q", "-m", "wide");
    git("checkout", "-q", "main");

    const w = ingestWatch([repo, "--index-dir", join(root, "idx"), "--debounce", "500"], root);
    expect(await eventually(() => batchLines(w.log()).length === 1, 20_000)).toBe(true);
    expect(batchLines(w.log())[0]).toContain("1 indexed");

    git("checkout", "-q", "wide");
    expect(await eventually(() => batchLines(w.log()).length >= 2, 30_000)).toBe(true);
    // Let any straggler batch show up before counting.
    await eventually(() => batchLines(w.log()).length > 2, 1_500);
    const batches = batchLines(w.log());
    expect(batches).toHaveLength(2);
    expect(batches[1]).toContain("2000 indexed");
    expect(w.log().filter((l) => l.includes("watch: added"))).toHaveLength(2001);

    // An ignored folder and a hidden file change: never indexed.
    mkdirSync(join(repo, "build"));
    writeFileSync(join(repo, "build", "out.md"), "# Build output\n");
    writeFileSync(join(repo, ".notes.md"), "# Hidden\n");
    // Back to main: the 2,000 pages are pruned in one batch.
    git("checkout", "-q", "main");
    expect(await eventually(() => batchLines(w.log()).some((l) => l.includes("2000 removed")), 30_000)).toBe(true);
    expect(w.log().some((l) => l.includes("build/out.md") || l.includes(".notes.md"))).toBe(false);

    w.child.kill("SIGINT");
    expect(await new Promise((r) => w.child.on("exit", r))).toBe(0);
    expect(w.log().some((l) => l.includes("SIGINT: stopping"))).toBe(true);
  });

  it("logs the first batch as the initial scan of the folders, and later ones as batches of changes", async () => {
    const root = join(work.dir, "scan");
    const docs = join(root, "docs");
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(docs, "one.md"), "# One\n\nThe first note.\n");
    writeFileSync(join(docs, "two.md"), "# Two\n\nThe second note.\n");
    const w = ingestWatch([docs, "--index-dir", join(root, "idx")], root);
    expect(await eventually(() => batchLines(w.log()).length === 1, 20_000)).toBe(true);
    expect(batchLines(w.log())[0]).toMatch(/watch: initial scan of 1 folder\(s\): 2 indexed, 0 moved, 0 removed, 0 unchanged, 0 failed/);

    writeFileSync(join(docs, "three.md"), "# Three\n\nThe third note.\n");
    expect(await eventually(() => batchLines(w.log()).length === 2, 20_000)).toBe(true);
    expect(batchLines(w.log())[1]).toMatch(/watch: batch of 1 change\(s\): 1 indexed/);
    expect(w.log().filter((l) => l.includes("initial scan"))).toHaveLength(1);
    w.child.kill("SIGTERM");
    expect(await new Promise((r) => w.child.on("exit", r))).toBe(0);
  });

  it("logs a file renamed into another folder as a move, keeping its document", async () => {
    const root = join(work.dir, "move");
    const docs = join(root, "docs");
    mkdirSync(join(docs, "old"), { recursive: true });
    mkdirSync(join(docs, "new"), { recursive: true });
    writeFileSync(join(docs, "old", "note.md"), "# Note\n\nThe lighthouse keeper moved house.\n");
    writeFileSync(join(docs, "stays.md"), "# Stays\n\nThis one stays put.\n");
    const w = ingestWatch([docs, "--index-dir", join(root, "idx")], root);
    expect(await eventually(() => batchLines(w.log()).length === 1, 20_000)).toBe(true);

    renameSync(join(docs, "old", "note.md"), join(docs, "new", "note.md"));
    expect(await eventually(() => batchLines(w.log()).length === 2, 20_000)).toBe(true);
    expect(batchLines(w.log())[1]).toMatch(/: 0 indexed, 1 moved, 0 removed, /);
    expect(w.log().some((l) => l.includes(`watch: moved ${join(docs, "old", "note.md")} -> ${join(docs, "new", "note.md")}`))).toBe(true);
    w.child.kill("SIGTERM");
    expect(await new Promise((r) => w.child.on("exit", r))).toBe(0);
  });

  it("survives the watched folder being deleted and re-created", async () => {
    const root = join(work.dir, "recreate");
    const docs = join(root, "docs");
    mkdirSync(join(docs, "deep"), { recursive: true });
    writeFileSync(join(docs, "deep", "one.md"), "# One\n\nThe first note.\n");
    const w = ingestWatch([docs, "--index-dir", join(root, "idx")], root);
    expect(await eventually(() => w.log().some((l) => l.includes("added") && l.includes("one.md")), 20_000)).toBe(true);

    rmSync(docs, { recursive: true });
    expect(await eventually(() => w.log().some((l) => l.includes("is gone")), 10_000)).toBe(true);
    mkdirSync(join(docs, "deep"), { recursive: true });
    writeFileSync(join(docs, "deep", "two.md"), "# Two\n\nThe second note.\n");
    expect(await eventually(() => w.log().some((l) => l.includes("added") && l.includes("two.md")), 10_000)).toBe(true);
    expect(await eventually(() => w.log().some((l) => l.includes("removed") && l.includes("one.md")), 10_000)).toBe(true);

    // Still watching the new folder, a level down included.
    writeFileSync(join(docs, "deep", "three.md"), "# Three\n\nThe third note.\n");
    expect(await eventually(() => w.log().some((l) => l.includes("added") && l.includes("three.md")), 10_000)).toBe(true);
    expect(w.log().filter((l) => l.includes("is gone"))).toHaveLength(1);
    w.child.kill("SIGTERM");
    expect(await new Promise((r) => w.child.on("exit", r))).toBe(0);
  });

  it("retries a batch another writer kept out, losing nothing", async () => {
    const root = join(work.dir, "busy");
    const docs = join(root, "docs");
    const idx = join(root, "idx");
    mkdirSync(docs, { recursive: true });
    mkdirSync(idx, { recursive: true });
    writeFileSync(join(docs, "one.md"), "# One\n\nThe first note.\n");
    const lock = await WriterLock.acquire(join(idx, "default.lock"), { collection: "default", operation: "test", timeoutMs: 0 });
    let released = false;
    try {
      const w = ingestWatch([docs, "--index-dir", idx, "--lock-timeout", "0"], root);
      expect(await eventually(() => w.log().some((l) => l.includes("the batch failed and is retried")), 20_000)).toBe(true);
      expect(w.log().some((l) => l.includes("COLLECTION_BUSY"))).toBe(true);
      lock.release();
      released = true;
      expect(await eventually(() => w.log().some((l) => l.includes("added") && l.includes("one.md")), 20_000)).toBe(true);
      w.child.kill("SIGTERM");
      expect(await new Promise((r) => w.child.on("exit", r))).toBe(0);
    } finally {
      if (!released) lock.release();
    }
  });

  it("refuses to watch a file or a URL, as a usage error", () => {
    const root = join(work.dir, "refuse");
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, "a.md"), "# A\n");
    for (const input of [join(root, "a.md"), "https://example.com/"]) {
      const res = grk(["ingest", "--watch", input, "--index-dir", join(root, "idx")], { cwd: root });
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/^error\[USAGE\]: --watch keeps folders indexed/);
    }
  });
});

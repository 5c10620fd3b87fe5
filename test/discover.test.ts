import { constants as fsConstants, promises as fsp } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import { discoverFiles, type DiscoveredEntry, type DiscoverOptions } from "../src/ingest/discover.js";

let tmp: string;
/** Paths whose permissions a test removed; restored before cleanup. */
let locked: string[];

beforeEach(async () => {
  tmp = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), "grk-discover-")));
  locked = [];
});

afterEach(async () => {
  for (const p of locked) await fsp.chmod(p, 0o755).catch(() => undefined);
  await fsp.rm(tmp, { recursive: true, force: true });
});

/** Create files (content = their name) and folders ("x/" suffix) under `dir`. */
async function tree(dir: string, entries: Record<string, string>): Promise<void> {
  for (const [rel, content] of Object.entries(entries)) {
    const p = path.join(dir, rel);
    if (rel.endsWith("/")) {
      await fsp.mkdir(p, { recursive: true });
    } else {
      await fsp.mkdir(path.dirname(p), { recursive: true });
      await fsp.writeFile(p, content);
    }
  }
}

async function collect(root: string, opts: Partial<DiscoverOptions> = {}): Promise<DiscoveredEntry[]> {
  const out: DiscoveredEntry[] = [];
  for await (const e of discoverFiles(root, { baseDir: tmp, ...opts })) out.push(e);
  return out;
}

const files = (entries: DiscoveredEntry[]) => entries.filter((e) => e.kind === "file").map((e) => e.relPath);
const ofKind = (entries: DiscoveredEntry[], kind: DiscoveredEntry["kind"]) =>
  entries.filter((e) => e.kind === kind).map((e) => e.relPath);
function refusal(entries: DiscoveredEntry[], relPath: string): GroundkitError {
  const e = entries.find((x) => x.relPath === relPath);
  if (!e || e.kind !== "refused") throw new Error(`expected ${relPath} to be refused, got ${JSON.stringify(e)}`);
  return e.error;
}

async function rejection(promise: Promise<unknown>): Promise<GroundkitError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(GroundkitError);
    return err as GroundkitError;
  }
  throw new Error("expected the walk to throw");
}

describe("discoverFiles: walking", () => {
  it("walks nested folders depth-first, entries sorted by name in code-unit order", async () => {
    await tree(tmp, {
      "b.md": "",
      "a-b.md": "",
      "a/x.md": "",
      "a/deep/er/y.txt": "",
      "B.md": "",
      "10.md": "",
      "9.md": "",
      "é.md": "",
      "z/": "",
    });
    const entries = await collect(tmp);
    // Per-folder sort ("a" < "a-b.md"), not full-path sort (which would put "a-b.md" before "a/…").
    expect(files(entries)).toEqual(["10.md", "9.md", "B.md", "a/deep/er/y.txt", "a/x.md", "a-b.md", "b.md", "é.md"]);
    expect(entries.every((e) => e.kind === "file")).toBe(true);
    // Same input, same order.
    expect(await collect(tmp)).toEqual(entries);
  });

  it("reports absolute walked path, real path, size and mtime of each file", async () => {
    await tree(tmp, { "docs/guide.md": "hello, world" });
    const [entry] = await collect(tmp);
    const stat = await fsp.stat(path.join(tmp, "docs", "guide.md"));
    expect(entry).toEqual({
      kind: "file",
      path: path.join(tmp, "docs", "guide.md"),
      realPath: path.join(tmp, "docs", "guide.md"),
      relPath: "docs/guide.md",
      size: 12,
      mtimeMs: stat.mtimeMs,
    });
  });

  it("skips hidden files and folders, and names node_modules folders as skipped (vendored)", async () => {
    await tree(tmp, {
      "keep.md": "",
      ".secret.md": "",
      ".hidden/inside.md": "",
      "sub/.env": "",
      "sub/ok.md": "",
      "node_modules/pkg/readme.md": "",
      "sub/node_modules/pkg/readme.md": "",
    });
    const entries = await collect(tmp);
    expect(entries.map((e) => [e.kind, e.relPath])).toEqual([
      ["file", "keep.md"],
      ["skipped", "node_modules"],
      ["skipped", "sub/node_modules"],
      ["file", "sub/ok.md"],
    ]);
    expect(entries.filter((e) => e.kind === "skipped").map((e) => (e as { reason: string }).reason)).toEqual(["vendored folder", "vendored folder"]);
  });

  it("yields a single-file root as just that file, with its name as relPath", async () => {
    await tree(tmp, { "dir/one.md": "1", "dir/two.md": "2" });
    const entries = await collect(path.join(tmp, "dir", "one.md"));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: "file", relPath: "one.md", path: path.join(tmp, "dir", "one.md") });
    const unsupported = await collect(path.join(tmp, "dir", "one.md"), { extensions: [".pdf"] });
    expect(unsupported).toEqual([{ kind: "unsupported", path: path.join(tmp, "dir", "one.md"), relPath: "one.md" }]);
  });

  it("reports files with other extensions as unsupported (case-insensitive)", async () => {
    await tree(tmp, { "a.md": "", "b.PDF": "", "c.png": "", "d/e.txt": "", "Makefile": "" });
    const entries = await collect(tmp, { extensions: [".md", ".pdf"] });
    expect(files(entries)).toEqual(["a.md", "b.PDF"]);
    expect(ofKind(entries, "unsupported")).toEqual(["Makefile", "c.png", "d/e.txt"]);
  });

  it("reports special files (here a socket) as unsupported without opening them", async () => {
    await tree(tmp, { "a.md": "" });
    const server = net.createServer();
    const sock = path.join(tmp, "b.md");
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    try {
      const entries = await collect(tmp);
      expect(entries).toEqual([
        expect.objectContaining({ kind: "file", relPath: "a.md" }),
        { kind: "unsupported", path: sock, relPath: "b.md" },
      ]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("yields entries as it goes instead of listing the whole tree first", async () => {
    await tree(tmp, { "a.md": "", "z/": "" });
    const gen = discoverFiles(tmp, { baseDir: tmp });
    const first = await gen.next();
    expect(first.value).toMatchObject({ relPath: "a.md" });
    // "z" has not been read yet, so a file created now is still found.
    await fsp.writeFile(path.join(tmp, "z", "late.md"), "");
    const rest: string[] = [];
    for await (const e of gen) rest.push(e.relPath);
    expect(rest).toEqual(["z/late.md"]);
  });

  it("throws when the root is missing or outside the base", async () => {
    expect((await rejection(collect(path.join(tmp, "nope")))).code).toBe("SOURCE_NOT_FOUND");
    const base = path.join(tmp, "base");
    await tree(tmp, { "base/a.md": "", "base2/b.md": "" });
    const err = await rejection(collect(path.join(tmp, "base2"), { baseDir: base }));
    expect(err.code).toBe("PATH_ESCAPES_BASE");
  });
});

describe("discoverFiles: .gitignore", () => {
  it("honours the root and nested .gitignore files, including negations", async () => {
    await tree(tmp, {
      ".gitignore": "*.log\nbuild/\n!important.log\n",
      "a.log": "",
      "important.log": "",
      "notes.md": "",
      "build/out.md": "",
      "other/build/x.md": "",
      "other/drop.md": "",
      "sub/.gitignore": "*.md\n!keep.md\n!debug.log\n",
      "sub/drop.md": "",
      "sub/keep.md": "",
      "sub/debug.log": "",
      "sub/trace.log": "",
      "sub/deeper/gone.md": "",
      "sub/deeper/data.txt": "",
    });
    const entries = await collect(tmp);
    // Ignored paths are skipped silently, not reported.
    expect(entries.map((e) => e.relPath)).toEqual([
      "important.log", // root negation
      "notes.md",
      "other/drop.md", // sub/.gitignore applies only under sub/
      "sub/debug.log", // nested negation re-includes what the root ignores
      "sub/deeper/data.txt",
      "sub/keep.md",
    ]);
  });

  it("matches nested patterns relative to their own folder", async () => {
    await tree(tmp, {
      "docs/.gitignore": "/private/\ntmp.md\n",
      "docs/private/p.md": "",
      "docs/pub/private/q.md": "",
      "docs/pub/tmp.md": "",
      "private/r.md": "",
    });
    const entries = await collect(tmp);
    // "/private/" is anchored to docs/; "tmp.md" matches at any depth below docs/.
    expect(files(entries)).toEqual(["docs/pub/private/q.md", "private/r.md"]);
  });

  it("refuses a folder whose .gitignore is a symlink leaving the base, rather than ignoring its rules", async () => {
    await tree(tmp, { "base/a.md": "", "base/sub/secret.md": "", "outside/rules": "secret.md\n" });
    const base = path.join(tmp, "base");
    await fsp.symlink(path.join(tmp, "outside", "rules"), path.join(base, "sub", ".gitignore"));
    const entries = await collect(base, { baseDir: base });
    expect(entries.map((e) => [e.kind, e.relPath])).toEqual([
      ["file", "a.md"],
      ["refused", "sub"],
    ]);
    expect(refusal(entries, "sub").code).toBe("PATH_ESCAPES_BASE");
    // At the root nothing can be walked safely: the walk throws.
    const err = await rejection(collect(path.join(base, "sub"), { baseDir: base }));
    expect(err.code).toBe("PATH_ESCAPES_BASE");
  });
});

describe("discoverFiles: include / exclude", () => {
  it("keeps files matching include and drops those matching exclude", async () => {
    await tree(tmp, {
      "a.md": "",
      "a.txt": "",
      "guides/b.md": "",
      "guides/b.tmp.md": "",
      "drafts/c.md": "",
      "drafts/deep/d.md": "",
    });
    const entries = await collect(tmp, { include: ["**/*.md"], exclude: ["drafts/**", "**/*.tmp.md"] });
    expect(entries.map((e) => e.relPath)).toEqual(["a.md", "guides/b.md"]);
    expect(files(await collect(tmp, { include: ["guides/*"] }))).toEqual(["guides/b.md", "guides/b.tmp.md"]);
    expect(files(await collect(tmp, { include: [], exclude: [] }))).toHaveLength(6);
  });

  it("does not descend into an excluded folder (no reports from inside it)", async () => {
    await tree(tmp, { "base/drafts/x.md": "", "base/ok.md": "", "outside/s.md": "" });
    await fsp.symlink(path.join(tmp, "outside", "s.md"), path.join(tmp, "base", "drafts", "leak.md"));
    const base = path.join(tmp, "base");
    const withExclude = await collect(base, { baseDir: base, exclude: ["drafts/**"] });
    expect(withExclude.map((e) => e.relPath)).toEqual(["ok.md"]);
    // Control: without the exclusion the escaping link is reported.
    const without = await collect(base, { baseDir: base });
    expect(refusal(without, "drafts/leak.md").code).toBe("PATH_ESCAPES_BASE");
  });
});

describe("discoverFiles: symlinks", () => {
  let base: string;
  let root: string;
  let outside: string;

  beforeEach(async () => {
    base = path.join(tmp, "base");
    root = path.join(base, "root");
    outside = path.join(tmp, "outside");
    await tree(tmp, {
      "base/shared/s.md": "shared",
      "base/root/own.md": "own",
      "outside/secret.md": "secret",
      "outside/dir/x.md": "x",
    });
  });

  it("follows symlinked files and folders whose real path is inside the base", async () => {
    await fsp.symlink(path.join(base, "shared", "s.md"), path.join(root, "link.md"));
    await fsp.symlink(path.join(base, "shared"), path.join(root, "linkdir"));
    const entries = await collect(root, { baseDir: base });
    expect(entries.map((e) => [e.kind, e.relPath])).toEqual([
      ["file", "link.md"],
      ["file", "linkdir/s.md"],
      ["file", "own.md"],
    ]);
    expect(entries[1]).toMatchObject({
      path: path.join(root, "linkdir", "s.md"),
      realPath: path.join(base, "shared", "s.md"),
      size: 6,
    });
    expect(entries[0]).toMatchObject({ path: path.join(root, "link.md"), realPath: path.join(base, "shared", "s.md") });
  });

  it("refuses a symlinked file or folder that escapes the base, by name", async () => {
    await fsp.symlink(path.join(outside, "secret.md"), path.join(root, "esc.md"));
    await fsp.symlink(path.join(outside, "dir"), path.join(root, "escdir"));
    const entries = await collect(root, { baseDir: base });
    expect(entries.map((e) => [e.kind, e.relPath])).toEqual([
      ["refused", "esc.md"],
      ["refused", "escdir"],
      ["file", "own.md"],
    ]);
    for (const name of ["esc.md", "escdir"]) {
      const err = refusal(entries, name);
      expect(err.code).toBe("PATH_ESCAPES_BASE");
      expect(err.message).toBe(`${path.join(root, name)} resolves outside the base directory ${base}`);
      expect(entries.find((e) => e.relPath === name)?.path).toBe(path.join(root, name));
    }
    // Nothing from behind the escaping folder leaks out.
    expect(entries.some((e) => e.relPath.startsWith("escdir/"))).toBe(false);
  });

  it("refuses a dangling symlink", async () => {
    await fsp.symlink(path.join(base, "gone.md"), path.join(root, "dangling.md"));
    const entries = await collect(root, { baseDir: base });
    const err = refusal(entries, "dangling.md");
    expect(err.code).toBe("SOURCE_NOT_FOUND");
    expect(err.message).toContain(path.join(root, "dangling.md"));
    expect(files(entries)).toEqual(["own.md"]);
  });

  it("does not hang on symlink loops", async () => {
    await tree(root, { "sub/inner.md": "" });
    await fsp.symlink(root, path.join(root, "sub", "up")); // back to an ancestor
    await fsp.symlink(".", path.join(root, "self")); // to itself
    await fsp.symlink(path.join(root, "loop-b"), path.join(root, "loop-a")); // a -> b -> a
    await fsp.symlink(path.join(root, "loop-a"), path.join(root, "loop-b"));
    const entries = await collect(root, { baseDir: base });
    expect(files(entries)).toEqual(["own.md", "sub/inner.md"]);
    expect(refusal(entries, "loop-a").code).toBe("FILE_UNREADABLE");
    expect(refusal(entries, "loop-b").code).toBe("FILE_UNREADABLE");
    expect(entries).toHaveLength(4);
  });

  it("walks a root reached through a symlink, reporting walked and real paths", async () => {
    const linkRoot = path.join(base, "alias");
    await fsp.symlink(root, linkRoot);
    const entries = await collect(linkRoot, { baseDir: base });
    expect(entries).toEqual([
      expect.objectContaining({ path: path.join(linkRoot, "own.md"), realPath: path.join(root, "own.md") }),
    ]);
  });
});

describe("discoverFiles: unreadable entries", () => {
  /** Root bypasses permission bits; probe rather than assume who we run as. */
  async function readable(p: string, isDir: boolean): Promise<boolean> {
    try {
      if (isDir) await fsp.readdir(p);
      else await fsp.access(p, fsConstants.R_OK);
      return true;
    } catch {
      return false;
    }
  }

  it("refuses an unreadable folder and keeps walking", async () => {
    await tree(tmp, { "a.md": "", "locked/f.md": "", "z.md": "" });
    const dir = path.join(tmp, "locked");
    await fsp.chmod(dir, 0o000);
    locked.push(dir);
    const entries = await collect(tmp);
    if (await readable(dir, true)) {
      // Running as root: permissions do not bite, the walk sees everything.
      expect(entries.map((e) => [e.kind, e.relPath])).toEqual([
        ["file", "a.md"],
        ["file", "locked/f.md"],
        ["file", "z.md"],
      ]);
    } else {
      expect(entries.map((e) => [e.kind, e.relPath])).toEqual([
        ["file", "a.md"],
        ["refused", "locked"],
        ["file", "z.md"],
      ]);
      expect(refusal(entries, "locked").code).toBe("FILE_UNREADABLE");
    }
  });

  it("refuses an unreadable file and keeps walking", async () => {
    await tree(tmp, { "a.md": "", "b.md": "", "c.md": "" });
    const file = path.join(tmp, "b.md");
    await fsp.chmod(file, 0o000);
    locked.push(file);
    const entries = await collect(tmp);
    const expected = (await readable(file, false)) ? "file" : "refused";
    expect(entries.map((e) => [e.kind, e.relPath])).toEqual([
      ["file", "a.md"],
      [expected, "b.md"],
      ["file", "c.md"],
    ]);
    if (expected === "refused") expect(refusal(entries, "b.md").code).toBe("FILE_UNREADABLE");
  });
});

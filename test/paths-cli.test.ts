/**
 * Paths and locations that do not trip people up, through the real CLI:
 * filters take the absolute paths the CLI prints, `--include '*.md'` matches
 * at any depth, a folder named on the command line is walked whatever its
 * name, unsupported files are named, a failed ingest of a missing path leaves
 * no collection, and extracted-HTML citations say which lines they count.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULTS } from "../src/core/config.js";
import { sha256 } from "../src/core/text.js";
import { installedPackage } from "../src/extract/package-identity.js";
import { fingerprintOf } from "../src/ingest/ingest.js";
import { grk, tempDir } from "./support/cli.js";

let dir: string;
let cleanup: () => void;

beforeEach(() => {
  ({ dir, cleanup } = tempDir("grk-paths-"));
  mkdirSync(join(dir, "docs", "guides", "deep"), { recursive: true });
  writeFileSync(join(dir, "docs", "top.md"), "# Top\n\nbackups run nightly\n");
  writeFileSync(join(dir, "docs", "guides", "deep", "nested.md"), "# Nested\n\nbackups are encrypted\n");
  writeFileSync(join(dir, "docs", "guides", "notes.txt"), "backups in plain text\n");
  writeFileSync(join(dir, "docs", "logo.png"), "not really a png\n");
});
afterEach(() => cleanup());

function run(args: string[], cwd = dir) {
  return grk(args, { cwd });
}

function sources(args: string[], cwd = dir): string[] {
  const res = run([...args, "--json"], cwd);
  expect(res.code, res.stderr).toBe(0);
  return (JSON.parse(res.stdout).results as Array<{ citation: { source: string } }>).map((h) => h.citation.source).sort();
}

describe("paths", () => {
  it("filters accept absolute paths, as the CLI prints sources outside the working directory", () => {
    expect(run(["ingest", "docs"]).code).toBe(0);
    const guides = join(dir, "docs", "guides");
    // From elsewhere the CLI prints absolute paths; the same text works as a filter.
    const elsewhere = join(dir, "docs", "guides", "deep");
    const printed = run(["search", "backups", "--index-dir", join(dir, ".groundkit")], elsewhere).stdout;
    expect(printed).toContain(join(guides, "notes.txt"));
    expect(sources(["search", "backups", "--filter", `path=${guides}/**`])).toEqual([join(guides, "deep", "nested.md"), join(guides, "notes.txt")]);
    expect(sources(["search", "backups", "--filter", `path=${join(guides, "notes.txt")}`])).toEqual([join(guides, "notes.txt")]);
    expect(sources(["search", "backups", "--filter", `path^=${guides}`])).toHaveLength(2);
    // Base-relative filters keep working.
    expect(sources(["search", "backups", "--filter", "path=guides/**"])).toHaveLength(2);
  });

  it("--include '*.md' matches Markdown files at any depth, as in .gitignore; a glob with a slash stays anchored", () => {
    const all = JSON.parse(run(["ingest", "docs", "--include", "*.md", "--json"]).stdout);
    expect(all.indexed).toBe(2);
    const anchored = JSON.parse(run(["ingest", "docs", "--include", "/*.md", "--collection", "anchored", "--json"]).stdout);
    expect(anchored.indexed).toBe(1);
    const excluded = JSON.parse(run(["ingest", "docs", "--exclude", "deep", "--collection", "ex", "--json"]).stdout);
    expect(excluded.indexed).toBe(2);
  });

  it("walks a folder named on the command line even if its name is one the walk skips", () => {
    mkdirSync(join(dir, "node_modules", "pkg"), { recursive: true });
    mkdirSync(join(dir, ".github"));
    writeFileSync(join(dir, "node_modules", "pkg", "README.md"), "# pkg\n\nbackups library\n");
    writeFileSync(join(dir, ".github", "SECURITY.md"), "# Security\n\nbackups policy\n");
    for (const named of ["node_modules/pkg", "node_modules", ".github"]) {
      const out = JSON.parse(run(["ingest", named, "--collection", named.replace(/[^a-z]/g, "x"), "--json"]).stdout);
      expect(out.indexed, named).toBe(1);
    }
  });

  it("names unsupported files in the text summary, not only in --json", () => {
    const out = run(["ingest", "docs"]).stdout;
    expect(out).toContain("unsupported (not indexed): 1 file(s)");
    expect(out).toContain(join("docs", "logo.png"));
  });

  it("leaves no empty collection behind when the ingest of a missing path fails", () => {
    const res = run(["ingest", "no-such-folder", "--collection", "typo"]);
    expect(res.code).toBe(1);
    // Every input is a missing path: refused before anything is written (issue 29).
    expect(res.stderr).toContain("error[SOURCE_NOT_FOUND]");
    expect(JSON.parse(run(["collections", "--json"]).stdout).collections).toEqual([]);
    // An existing collection is never removed, and an empty folder is a root worth keeping.
    mkdirSync(join(dir, "empty"));
    expect(run(["ingest", "empty", "--collection", "kept"]).code).toBe(0);
    run(["ingest", "no-such-folder", "--collection", "kept"]);
    expect(JSON.parse(run(["collections", "--json"]).stdout).collections.map((c: { name: string }) => c.name)).toEqual(["kept"]);
  });
});

describe("extracted HTML lines", () => {
  const PAGE =
    "<!doctype html>\n<html><head><title>Backups</title></head>\n<body>\n<h1>Backups</h1>\n\n\n<p>Backups are\nverified weekly.</p>\n</body></html>\n";

  it("cites HTML by the lines of the file, which grk get reads back and grk verify checks", () => {
    writeFileSync(join(dir, "docs", "page.html"), PAGE);
    run(["ingest", "docs/page.html", "--collection", "html"]);
    const found = JSON.parse(run(["search", "verified weekly", "--collection", "html", "--verify", "--json"]).stdout);
    const hit = found.results[0];
    expect(hit.citation.source_class).toBe("extracted");
    expect(hit.verification.verdict).toBe("verified");
    // "# Backups\n\nBackups are verified weekly.": lines 1-3 of the extracted text, lines 4-8 of the HTML file.
    expect(hit.citation).toMatchObject({ start_line: 1, end_line: 3, source_start_line: 4, source_end_line: 8 });
    const shown = run(["search", "verified weekly", "--collection", "html"]).stdout;
    expect(shown).toContain("page.html:4-8  score");
    expect(shown).not.toContain("lines of extracted text");
    // The lines search printed are the lines get reads: lines 7-8 of the file hold the paragraph.
    const lines = JSON.parse(run(["get", "docs/page.html:7-8", "--collection", "html", "--json"]).stdout);
    expect(lines).toMatchObject({ lines_of: "file", start_line: 7, end_line: 8, text: "Backups are verified weekly." });
    expect(run(["get", "docs/page.html:7-8", "--collection", "html"]).stdout).toMatch(/^docs\/page\.html:7-8 {2}\[verified\] {2}\(8 lines\)/);
    writeFileSync(join(dir, "cite.json"), JSON.stringify(lines.citation));
    expect(JSON.parse(run(["verify", "cite.json", "--collection", "html", "--json"]).stdout).verdict).toBe("verified");
    // A line inserted above moves the text to other lines of the file, not of the extracted text: drifted, saying where.
    writeFileSync(join(dir, "docs", "page.html"), PAGE.replace("<body>", "<body>\n"));
    const moved = JSON.parse(run(["verify", "cite.json", "--collection", "html", "--json"]).stdout);
    expect(moved).toMatchObject({ verdict: "drifted" });
    expect(moved.detail).toContain("now on file lines 8-9 (cited 7-8)");
  });

  it("keeps the extracted-text label for a collection indexed before source lines were recorded", async () => {
    writeFileSync(join(dir, "docs", "page.html"), PAGE);
    run(["ingest", "docs/page.html", "--collection", "old"]);
    // An older build wrote chunk metadata without source lines, and fingerprinted HTML by the extractor
    // identity alone: make this collection look like one.
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(join(dir, ".groundkit", "old.sqlite3"));
    db.exec("UPDATE chunks SET metadata = json_remove(metadata, '$.source_lines')");
    const bytes = sha256(readFileSync(join(dir, "docs", "page.html")));
    db.prepare("UPDATE documents SET fingerprint = ?").run(fingerprintOf(bytes, installedPackage("htmlparser2").identity, DEFAULTS));
    db.close();
    const found = JSON.parse(run(["search", "verified weekly", "--collection", "old", "--verify", "--json"]).stdout);
    expect(found.results[0].citation).not.toHaveProperty("source_start_line");
    expect(found.results[0].verification.verdict).toBe("verified");
    expect(run(["search", "verified weekly", "--collection", "old"]).stdout).toContain("page.html:1-3 (lines of extracted text)");
    // The next update re-extracts the unchanged HTML once, and its hits name the file's lines.
    const updated = JSON.parse(run(["update", "--collection", "old", "--json"]).stdout);
    expect(JSON.stringify(updated)).toMatch(/"indexed":1/);
    expect(run(["search", "verified weekly", "--collection", "old"]).stdout).toContain("page.html:4-8  score");
    expect(JSON.stringify(JSON.parse(run(["update", "--collection", "old", "--json"]).stdout))).toMatch(/"unchanged":1/);
  });
});

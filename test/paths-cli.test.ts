/**
 * Paths and locations that do not trip people up, through the real CLI:
 * filters take the absolute paths the CLI prints, `--include '*.md'` matches
 * at any depth, a folder named on the command line is walked whatever its
 * name, unsupported files are named, a failed ingest of a missing path leaves
 * no collection, and extracted-HTML citations say which lines they count.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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
    expect(res.stdout).toContain("error[SOURCE_NOT_FOUND]");
    expect(JSON.parse(run(["collections", "--json"]).stdout).collections).toEqual([]);
    // An existing collection is never removed, and an empty folder is a root worth keeping.
    mkdirSync(join(dir, "empty"));
    expect(run(["ingest", "empty", "--collection", "kept"]).code).toBe(0);
    run(["ingest", "no-such-folder", "--collection", "kept"]);
    expect(JSON.parse(run(["collections", "--json"]).stdout).collections.map((c: { name: string }) => c.name)).toEqual(["kept"]);
  });
});

describe("extracted HTML lines", () => {
  it("labels HTML citation lines as lines of the extracted text, which grk get serves and grk verify checks", () => {
    writeFileSync(
      join(dir, "docs", "page.html"),
      "<!doctype html>\n<html><head><title>Backups</title></head>\n<body>\n<h1>Backups</h1>\n\n\n<p>Backups are\nverified weekly.</p>\n</body></html>\n",
    );
    run(["ingest", "docs/page.html", "--collection", "html"]);
    const found = JSON.parse(run(["search", "verified weekly", "--collection", "html", "--verify", "--json"]).stdout);
    const hit = found.results[0];
    expect(hit.citation.source_class).toBe("extracted");
    expect(hit.verification.verdict).toBe("verified");
    // Lines 1-3 of the extracted text ("# Backups", "", "Backups are verified weekly."), not of the HTML file.
    expect(hit.citation).toMatchObject({ start_line: 1, end_line: 3 });
    const shown = run(["search", "verified weekly", "--collection", "html"]).stdout;
    expect(shown).toContain("page.html:1-3 (lines of extracted text)");
    const lines = JSON.parse(run(["get", "docs/page.html:3", "--collection", "html", "--json"]).stdout);
    expect(lines.text).toBe("Backups are verified weekly.");
    writeFileSync(join(dir, "cite.json"), JSON.stringify(lines.citation));
    expect(JSON.parse(run(["verify", "cite.json", "--collection", "html", "--json"]).stdout).verdict).toBe("verified");
  });
});

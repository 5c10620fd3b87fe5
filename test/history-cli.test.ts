/**
 * Document history at the command line (docs/decisions/0031-document-history.md): `grk history`, `grk get
 * --version`, `grk show` of a chunk only an earlier version had, `grk verify` of an old hit, a mistyped
 * `--history` refused before anything is created, and `grk doctor`'s history check. The real CLI (dist/).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grk, tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
let hits: string;

beforeAll(() => {
  work = tempDir("grk-history-cli-");
  mkdirSync(join(work.dir, "docs"));
  writeFileSync(join(work.dir, "docs", "plan.md"), "# Plan\n\nShip the first draft on Monday.\n");
  expect(grk(["ingest", "docs"], { cwd: work.dir }).code).toBe(0);
  hits = join(work.dir, "hits.json");
  writeFileSync(hits, grk(["search", "first draft", "--json"], { cwd: work.dir }).stdout);
  writeFileSync(join(work.dir, "docs", "plan.md"), "# Plan\n\nShip the second draft on Friday.\n");
  expect(grk(["ingest", "docs"], { cwd: work.dir }).code).toBe(0);
});
afterAll(() => work.cleanup());

describe("grk history and old versions", () => {
  it("lists the versions, reads the previous one, and shows the old chunk as it was", () => {
    const list = grk(["history", "docs/plan.md", "--json"], { cwd: work.dir });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).versions.map((v: { version: number; status: string }) => [v.version, v.status])).toEqual([
      [0, "current"],
      [1, "replaced"],
    ]);
    const old = grk(["get", "docs/plan.md", "--version", "1"], { cwd: work.dir });
    expect(old.code, old.stderr).toBe(0);
    expect(old.stdout).toContain("Ship the first draft on Monday.");
    const chunkId = (JSON.parse(readFileSync(hits, "utf8")) as { results: Array<{ chunk_id: string }> }).results[0]!.chunk_id;
    const shown = grk(["show", chunkId], { cwd: work.dir });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("[drifted]");
    expect(shown.stdout).toContain("Ship the first draft on Monday.");
    expect(shown.stdout).toContain("the text above is as cited: version 1");
    const verified = grk(["verify", hits], { cwd: work.dir });
    expect(verified.stdout).toContain("as cited (version 1");
    const missing = grk(["get", "docs/plan.md", "--version", "5"], { cwd: work.dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("error[VERSION_NOT_FOUND]");
  });

  it("refuses a mistyped retention before creating anything, and doctor checks the history", () => {
    const bad = grk(["ingest", "docs", "--history", "forever", "--collection", "fresh"], { cwd: work.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("error[INVALID_ARGUMENT]");
    expect(existsSync(join(work.dir, ".groundkit", "fresh.sqlite3"))).toBe(false);
    const doctor = grk(["doctor", "--json"], { cwd: work.dir });
    const history = JSON.parse(doctor.stdout).collections?.[0]?.checks ?? JSON.parse(doctor.stdout).checks;
    expect(history.find((c: { name: string }) => c.name === "history")).toMatchObject({ status: "ok" });
  });
});


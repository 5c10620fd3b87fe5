/**
 * The CLI names what is wrong with its environment and its numbers (issue 12
 * item 11 and "also seen"; issue 19's port in use): an unusable --index-dir, a
 * non-decimal integer flag, a port another process holds. Typed errors with a
 * hint, never `INTERNAL … This is a bug`, never a spin. Through the real CLI.
 * Tests run as root, so "unwritable" is a file, a path under a file, or /proc.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intFlag } from "../src/cli/common.js";
import { parseSweep } from "../src/cli/eval.js";
import { grk, grkAsync, grkServe, tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };

beforeAll(() => {
  work = tempDir("grk-env-");
  writeFileSync(join(work.dir, "a.md"), "# A\n\nfirewall notes\n");
  writeFileSync(join(work.dir, "plain-file"), "not a directory\n");
});
afterAll(() => work.cleanup());

function expectTyped(res: { code: number; stderr: string }, code: string, ...mentions: RegExp[]): void {
  expect(res.stderr).toMatch(new RegExp(`^error\\[${code}\\]: `));
  expect(res.stderr).toMatch(/\nhint: /);
  expect(res.stderr).not.toMatch(/INTERNAL|This is a bug|\n\s+at /);
  for (const m of mentions) expect(res.stderr).toMatch(m);
}

describe("an unusable --index-dir", () => {
  it("a regular file: ingest and search both say so", () => {
    const file = join(work.dir, "plain-file");
    for (const args of [["ingest", "a.md"], ["search", "firewall"]]) {
      const res = grk([...args, "--index-dir", file], { cwd: work.dir });
      expect(res.code, args.join(" ")).toBe(1);
      expectTyped(res, "INDEX_DIR_UNUSABLE", new RegExp(`${file} cannot be used: it is a regular file`));
    }
  });

  it("a path under a regular file: names the file in the way", () => {
    const file = join(work.dir, "plain-file");
    const res = grk(["ingest", "a.md", "--index-dir", join(file, "idx", "deeper")], { cwd: work.dir });
    expect(res.code).toBe(1);
    expectTyped(res, "INDEX_DIR_UNUSABLE", new RegExp(`cannot be used: ${file} is a regular file`));
  });

  it("under /proc: refused at once (Node's recursive mkdir spins there forever)", async () => {
    const res = await grkAsync(["ingest", "a.md", "--index-dir", `/proc/groundkit-test-${process.pid}/idx`], {
      cwd: work.dir,
      killAfterMs: 20_000,
    });
    expect(res.hung, "grk ingest hung").toBe(false);
    expect(res.code).toBe(1);
    expectTyped(res, "INDEX_DIR_UNUSABLE", /creating \/proc\/groundkit-test-\d+: the file system does not allow creating a directory there/);
  });

  it("/proc itself (a directory that refuses files)", () => {
    const res = grk(["ingest", "a.md", "--index-dir", "/proc"], { cwd: work.dir });
    expect(res.code).toBe(1);
    expectTyped(res, "INDEX_DIR_UNUSABLE", /\/proc cannot be used: SQLITE_CANTOPEN/);
  });
});

describe("integer flags take plain decimal digits only", () => {
  it.each([
    ["search", "firewall", "--top-k", "0x10"],
    ["ingest", "a.md", "--chunk-size", "1e3"],
    ["serve", "--port", "0x1f90"],
  ])("%s … %s %s is a usage error", async (...args) => {
    // Async with a kill: accepted, `serve --port 0x1f90` would listen on 8080 for good.
    const res = await grkAsync([...args, "--index-dir", join(work.dir, "idx")], { cwd: work.dir, killAfterMs: 20_000 });
    expect(res.hung, "the flag was accepted and the command kept running").toBe(false);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/must be an integer from \d+ to \d+; got '/);
  });

  it("what Number() would also take is refused; plain decimals in range pass", () => {
    const topK = intFlag("--top-k", 1, 100);
    for (const bad of ["0x10", "1e1", "5.0", " 5", "5 ", "", "0b11", "0o7", "+5", "Infinity", "101", "0", "-1"]) {
      expect(() => topK(bad), JSON.stringify(bad)).toThrow(/--top-k must be an integer from 1 to 100/);
    }
    expect([topK("16"), topK("1"), topK("100"), topK("007")]).toEqual([16, 1, 100, 7]);
    expect(intFlag("--chunk-overlap", 0, 50_000)("0")).toBe(0);
  });

  it("--sweep refuses a malformed value instead of dropping it", () => {
    expect(parseSweep("chunk-size=256,512")).toMatchObject({ values: [256, 512] });
    for (const bad of ["chunk-size=256,,512", "chunk-size=256, ", "chunk-size=2 56"]) {
      expect(() => parseSweep(bad), bad).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
  });
});

describe("grk serve on a port in use", () => {
  it("is PORT_IN_USE with a hint, not INTERNAL", async () => {
    const first = await grkServe(["--port", "0", "--index-dir", join(work.dir, "idx")], { cwd: work.dir });
    try {
      const port = new URL(first.url).port;
      const res = await grkAsync(["serve", "--port", port, "--index-dir", join(work.dir, "idx")], { cwd: work.dir, killAfterMs: 20_000 });
      expect(res.hung, "the second server kept running").toBe(false);
      expect(res.code).toBe(1);
      expectTyped(res, "PORT_IN_USE", new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use`), /--port/);
    } finally {
      first.child.kill("SIGKILL");
    }
  });
});

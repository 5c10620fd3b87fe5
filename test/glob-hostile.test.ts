/**
 * Hostile path globs (issue 12, item 3). A filter once froze `grk serve`, /healthz
 * included, for 94 s: picomatch compiled it to a backtracking regex that ran
 * on the event loop. Everything here runs in child processes (the real CLI and
 * a real `grk serve` on 127.0.0.1), so a regression shows up as a hang caught
 * by a generous deadline, never as a blocked test worker. No timing asserts.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grk, grkAsync, grkServe, tempDir } from "./support/cli.js";

/** The red-team's filter: 33 characters, no token needed. */
const EXTGLOB = "**/+(*)+(*)+(*)+(*)+(*)+(*)x";
/** Valid syntax, exponential for a backtracking matcher on names without a 'b'. */
const STARS = "**/*a*a*a*a*a*a*a*a*b";
/** Long enough to catch a hang, far beyond what a linear matcher needs here. */
const HANG_MS = 20_000;

let work: { dir: string; cleanup: () => void };
let indexDir: string;

beforeAll(() => {
  work = tempDir("grk-glob-hostile-");
  const docs = join(work.dir, "docs");
  mkdirSync(join(docs, "deep", "er"), { recursive: true });
  // Names of a's (and one 10-letter name): the worst inputs for both patterns.
  writeFileSync(join(docs, "abcdefghij.md"), "firewall notes\n");
  for (let i = 0; i < 5; i++) writeFileSync(join(docs, "deep", "er", `${"a".repeat(120)}${i}.md`), `firewall rules ${i}\n`);
  indexDir = join(work.dir, "idx");
  const res = grk(["ingest", "docs", "--index-dir", indexDir], { cwd: work.dir });
  expect(res.code, res.stderr).toBe(0);
});
afterAll(() => work.cleanup());

const grkWithin = (args: string[]) => grkAsync(args, { cwd: work.dir, killAfterMs: HANG_MS });

describe("pathological globs through the CLI finish", () => {
  it.each([
    STARS,
    `**/${"*a".repeat(60)}b`,
    "{**/*a*a*a*a*a*b,*a*a*a*a*a*a*a*c,deep/**/*a*a*a*a*a*a*a*a*a*z}",
    `**/*${"a".repeat(100)}b*`,
  ])("grk search --filter path=%s answers (no hits)", async (glob) => {
    const res = await grkWithin(["search", "firewall", "--index-dir", indexDir, "--json", "--filter", `path=${glob}`]);
    expect(res.hung, "the search hung").toBe(false);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ results: [] });
  });

  it("the red-team's extglob is refused with INVALID_FILTER and says what is supported", async () => {
    const res = await grkWithin(["search", "firewall", "--index-dir", indexDir, "--filter", `path=${EXTGLOB}`]);
    expect(res.hung, "the search hung").toBe(false);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error\[INVALID_FILTER\]: Glob .* uses the extglob '\+\(…\)'\. Supported: /m);
  });

  it("a pathological --include finishes the walk (ingest's globs use the same matcher)", async () => {
    const res = await grkWithin(["ingest", "docs", "--index-dir", join(work.dir, "idx-include"), "--json", "--include", STARS]);
    expect(res.hung, "the ingest hung").toBe(false);
    expect(res.code, res.stderr).toBe(0);
  });
});

describe("a hostile filter against a real `grk serve`", () => {
  let child: ChildProcessWithoutNullStreams;
  let url: string;

  beforeAll(async () => {
    ({ url, child } = await grkServe(["--port", "0", "--index-dir", indexDir, "--request-timeout", "5"], { cwd: work.dir }));
  });
  afterAll(() => {
    child.kill("SIGKILL");
  });

  /** Send the search and poll /healthz until it settles (and a few times after); each request has the hang deadline. */
  async function searchWhilePolling(glob: string) {
    const health: Array<number | string> = [];
    let settled = false;
    const search = fetch(`${url}/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "firewall", filters: [`path=${glob}`] }),
      signal: AbortSignal.timeout(HANG_MS),
    }).then(
      async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }),
      (err: Error) => ({ status: 0, body: { aborted: err.name } }),
    );
    void search.finally(() => (settled = true));
    const poll = (async () => {
      for (let after = 0; after < 3; after += settled ? 1 : 0) {
        const status = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(HANG_MS) }).then(
          (r) => r.status,
          (err: Error) => err.name,
        );
        health.push(status);
        if (status !== 200) break;
      }
    })();
    const [result] = await Promise.all([search, poll]);
    return { result, health };
  }

  it("refuses the 33-character extglob (400 INVALID_FILTER) while /healthz keeps answering", async () => {
    const { result, health } = await searchWhilePolling(EXTGLOB);
    expect(result.status, JSON.stringify(result.body)).toBe(400);
    expect(result.body).toMatchObject({ error: { code: "INVALID_FILTER" } });
    expect(health.every((s) => s === 200), `healthz: ${health.join(",")}`).toBe(true);
  });

  it("answers a pathological valid glob while /healthz keeps answering", async () => {
    const { result, health } = await searchWhilePolling(STARS);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toMatchObject({ results: [] });
    expect(health.every((s) => s === 200), `healthz: ${health.join(",")}`).toBe(true);
  });
});

/**
 * Writers racing on one collection never lose a document: two real `grk
 * ingest` processes of the same folder, and a CLI ingest racing a library
 * ingest, each time after every file changed (so both runs write), must leave
 * every document in place. Before the writer lock and path-based pruning, each
 * run pruned the other's fresh replacements and the count dropped.
 *
 * Process start-up takes seconds on a loaded machine and an ingest of the
 * folder well under one, so "started together" alone rarely overlaps. Each
 * run therefore first fetches a gate page from a server in this process, which
 * answers only once every racer has asked, so the folder walks start together;
 * or as soon as a racer reports that it waits for the writer lock (then the
 * runs are serialized and there is nothing left to line up).
 */
import { spawn } from "node:child_process";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection } from "../src/collection/index.js";
import { CLI, grk, tempDir, type CliResult } from "./support/cli.js";
import { writeCorpus } from "./support/corpus.js";

// More than one write batch (256 documents), so the two runs' commits interleave.
const FILES = 600;
/** Each round lost documents on the code before the fix (every run of 4 rounds failed); a few keep the file fast. */
const ROUNDS = 4;
/** Only to detect a hang: a round is two process start-ups, which take seconds each on a loaded machine. */
const HANG_MS = 240_000;
const WAIT_MESSAGE = /waiting for another \w+ of collection 'default'/;

let work: { dir: string; cleanup: () => void };
let indexDir: string;
let version = 1;
let server: Server;
let gateUrl: string;

/**
 * Gate requests are held until `expected` have arrived, or until release();
 * then the gate stays open (a racer that waited for the lock asks after the
 * others went through) until the next round closes it.
 */
const gate = {
  expected: 2,
  open: false,
  held: [] as ServerResponse[],
  arrive(res: ServerResponse): void {
    this.held.push(res);
    if (this.open || this.held.length >= this.expected) this.release();
  },
  release(): void {
    this.open = true;
    for (const res of this.held.splice(0)) res.writeHead(200, { "content-type": "text/plain" }).end("The gate page.\n");
  },
};

/** Change every file, and close the gate for the next round. */
function nextRound(): void {
  touchAll();
  gate.open = false;
}

/** Change every file, so whichever run comes second still has to write them all. */
function touchAll(): void {
  writeCorpus(join(work.dir, "docs"), FILES, ++version);
}

async function documentCount(): Promise<number> {
  const col = await openCollection({ indexDir });
  try {
    return (await col.status()).documents;
  } finally {
    await col.close();
  }
}

/** `grk ingest <gate> docs`, releasing the gate early when it reports waiting for the lock. */
function racer(): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, "ingest", gateUrl, "docs", "--allow-private-network", "--json", "--lock-timeout", String(HANG_MS / 1000)], {
      cwd: work.dir,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (WAIT_MESSAGE.test(stderr)) gate.release();
    });
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

beforeAll(async () => {
  work = tempDir("grk-race-");
  indexDir = join(work.dir, ".groundkit");
  server = createServer((_req, res) => gate.arrive(res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  gateUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gate.txt`;
  writeCorpus(join(work.dir, "docs"), FILES, version);
  const first = grk(["ingest", "docs"], { cwd: work.dir });
  expect(first.code, first.stderr).toBe(0);
});
afterAll(async () => {
  gate.release();
  await new Promise((r) => server.close(r));
  work.cleanup();
});

// FILES documents plus the gate page's snapshot.
const EXPECTED = FILES + 1;

describe("concurrent ingests of one collection", () => {
  it("two grk processes started together keep every document, every time", async () => {
    const counts: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      nextRound();
      const runs = await Promise.all([racer(), racer()]);
      for (const run of runs) expect(run.code, run.stderr).toBe(0);
      counts.push(await documentCount());
    }
    expect(counts).toEqual(Array(ROUNDS).fill(EXPECTED));
  }, HANG_MS);

  it("a grk process racing a library ingest in this process keeps every document", async () => {
    const counts: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      nextRound();
      const cli = racer();
      const col = await openCollection({ indexDir });
      try {
        const summary = await col.ingest([gateUrl, join(work.dir, "docs")], {
          allowPrivateNetwork: true,
          // The other writer may hold the lock for a whole 600-file ingest on a loaded machine.
          lockTimeoutMs: HANG_MS,
          onLockWait: () => gate.release(),
        });
        expect(summary.failed).toEqual([]);
      } finally {
        await col.close();
      }
      const run = await cli;
      expect(run.code, run.stderr).toBe(0);
      counts.push(await documentCount());
    }
    expect(counts).toEqual(Array(ROUNDS).fill(EXPECTED));
  }, HANG_MS);
});

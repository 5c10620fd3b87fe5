/**
 * The per-collection writer lock: a second writer waits, then fails with
 * COLLECTION_BUSY naming the holder; a holder killed with SIGKILL does not
 * wedge the collection; every writing surface (library, CLI, REST, collection
 * delete) takes the same lock.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteCollection, openCollection } from "../src/collection/index.js";
import { GroundkitError } from "../src/core/errors.js";
import { WriterLock, type LockHolder } from "../src/store/sqlite/writer-lock.js";
import { grk, tempDir } from "./support/cli.js";
import { http, startTestServer, TOKEN } from "./service-fixtures.js";

let work: { dir: string; cleanup: () => void };
let indexDir: string;
let lockPath: string;

beforeAll(async () => {
  work = tempDir("grk-lock-");
  indexDir = join(work.dir, ".groundkit");
  mkdirSync(join(work.dir, "docs"));
  writeFileSync(join(work.dir, "docs", "a.md"), "# A\n\nThe lock keeper writes alone.\n");
  const col = await openCollection({ indexDir, create: true });
  try {
    await col.ingest([join(work.dir, "docs")]);
  } finally {
    await col.close();
  }
  lockPath = WriterLock.pathFor(join(indexDir, "default.sqlite3"));
});
afterAll(() => work.cleanup());

async function busyError(p: Promise<unknown>): Promise<GroundkitError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GroundkitError);
  expect((err as GroundkitError).code).toBe("COLLECTION_BUSY");
  return err as GroundkitError;
}

/** A separate node process that takes the lock (through the built module) and holds it until killed. */
function foreignHolder(): Promise<ChildProcess> {
  const mod = pathToFileURL(resolve(import.meta.dirname, "../dist/store/sqlite/writer-lock.js")).href;
  const script =
    `const { WriterLock } = await import(${JSON.stringify(mod)});` +
    `await WriterLock.acquire(${JSON.stringify(lockPath)}, { collection: "default", operation: "ingest", timeoutMs: 10000 });` +
    `process.stdout.write("held\\n"); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolvePromise, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      if (d.toString().includes("held")) resolvePromise(child);
    });
    child.on("exit", (code) => reject(new Error(`lock holder exited early (${code})`)));
  });
}

describe("writer lock", () => {
  it("makes a second writer wait, then fail with COLLECTION_BUSY naming the holder", async () => {
    const held = await WriterLock.acquire(lockPath, { collection: "default", operation: "reembed", timeoutMs: 0 });
    try {
      const waits: Array<LockHolder | undefined> = [];
      const err = await busyError(
        WriterLock.acquire(lockPath, { collection: "default", operation: "ingest", timeoutMs: 300, onWait: (h) => waits.push(h) }),
      );
      expect(waits).toHaveLength(1);
      expect(waits[0]).toMatchObject({ pid: process.pid, operation: "reembed" });
      expect(err.message).toMatch(new RegExp(`another reembed \\(pid ${process.pid}, since .*\\).*gave up after waiting 0\\.3 s`));
      expect(err.httpStatus).toBe(409);
      // Without a wait there is no waiting callback, just the refusal.
      const none: unknown[] = [];
      await busyError(WriterLock.acquire(lockPath, { collection: "default", operation: "ingest", timeoutMs: 0, onWait: (h) => none.push(h) }));
      expect(none).toEqual([]);
    } finally {
      held.release();
    }
    // Released: the next writer gets it at once.
    (await WriterLock.acquire(lockPath, { collection: "default", operation: "ingest", timeoutMs: 0 })).release();
  });

  it("makes a second writer wait, and gives it the lock once the holder releases it", async () => {
    const held = await WriterLock.acquire(lockPath, { collection: "default", operation: "ingest", timeoutMs: 0 });
    let waited = false;
    let acquired = false;
    const next = WriterLock.acquire(lockPath, { collection: "default", operation: "ingest", timeoutMs: 20_000, onWait: () => (waited = true) }).then(
      (lock) => ((acquired = true), lock),
    );
    expect(waited).toBe(true);
    // Still held: several polls go by without the waiter getting in.
    await new Promise((r) => setTimeout(r, 200));
    expect(acquired).toBe(false);
    held.release();
    (await next).release();
    expect(acquired).toBe(true);
  });

  it("is not wedged by a holder killed with SIGKILL", async () => {
    const child = await foreignHolder();
    try {
      const err = await busyError(WriterLock.acquire(lockPath, { collection: "default", operation: "ingest", timeoutMs: 0 }));
      expect(err.message).toContain(`pid ${child.pid}`);
    } finally {
      child.kill("SIGKILL");
    }
    await new Promise((r) => child.once("exit", r));
    // Its holder record is left behind naming a dead pid; the lock itself went with the process.
    const lock = await WriterLock.acquire(lockPath, { collection: "default", operation: "ingest", timeoutMs: 10_000 });
    expect(lock.holder.pid).toBe(process.pid);
    lock.release();
  });

  it("makes `grk ingest` wait with a message on stderr, then exit with COLLECTION_BUSY", async () => {
    const held = await WriterLock.acquire(lockPath, { collection: "default", operation: "ingest", timeoutMs: 0 });
    try {
      const res = grk(["ingest", "docs", "--lock-timeout", "1"], { cwd: work.dir });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`waiting for another ingest of collection 'default' (pid ${process.pid}, since`);
      expect(res.stderr).toContain("error[COLLECTION_BUSY]");
      expect(res.stderr).toContain("--lock-timeout");
      expect(grk(["ingest", "docs", "--lock-timeout", "-1"], { cwd: work.dir }).code).toBe(2);
    } finally {
      held.release();
    }
    const ok = grk(["ingest", "docs", "--lock-timeout", "0"], { cwd: work.dir });
    expect(ok.code, ok.stderr).toBe(0);
  });

  it("answers a REST ingest or delete with 409 COLLECTION_BUSY within the server's lock wait", async () => {
    const server = await startTestServer({ indexDir, allowedRoots: [work.dir], lockTimeoutMs: 200 }, { token: TOKEN });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const held = await WriterLock.acquire(lockPath, { collection: "default", operation: "reembed", timeoutMs: 0 });
    try {
      const ingest = await http(server, "POST", "/v1/collections/default/ingest", { body: { inputs: ["docs"] }, headers: auth });
      expect(ingest.status, ingest.text).toBe(409);
      expect(ingest.json.error.code).toBe("COLLECTION_BUSY");
      const del = await http(server, "DELETE", "/v1/collections/default/documents/doc_x", { headers: auth });
      expect(del.status, del.text).toBe(409);
    } finally {
      held.release();
      await server.close();
    }
  });

  it("refuses to delete a collection another writer holds", async () => {
    const held = await WriterLock.acquire(lockPath, { collection: "default", operation: "ingest", timeoutMs: 0 });
    try {
      await expect(deleteCollection({ indexDir })).rejects.toThrow(expect.objectContaining({ code: "COLLECTION_BUSY" }));
      const res = grk(["collections", "delete", "default", "--yes"], { cwd: work.dir });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain("error[COLLECTION_BUSY]");
    } finally {
      held.release();
    }
    const col = await openCollection({ indexDir });
    expect((await col.status()).documents).toBe(1);
    await col.close();
  });

  it("does not write into a collection deleted while the writer waited", async () => {
    const col = await openCollection({ indexDir });
    const held = await WriterLock.acquire(lockPath, { collection: "default", operation: "delete", timeoutMs: 0 });
    let waiting!: () => void;
    const started = new Promise<void>((r) => (waiting = r));
    const ingest = col.ingest([join(work.dir, "docs")], { lockTimeoutMs: 20_000, onLockWait: () => waiting() });
    await started;
    // What deleteCollection does while it holds the lock.
    for (const suffix of ["", "-wal", "-shm"]) rmSync(join(indexDir, `default.sqlite3${suffix}`), { force: true });
    held.release();
    await expect(ingest).rejects.toMatchObject({ code: "COLLECTION_NOT_FOUND" });
    await col.close();
  });
});

/**
 * Making "remove read permission" meaningful. As a normal user, `chmod 000`
 * blocks reads and verification runs in-process. As root (CI containers), it
 * does not, so verification for that mutation runs in a worker process started
 * as user `nobody` (uid/gid 65534) — see perm-worker.ts. A probe decides which,
 * and the run records the decision; when neither is possible the kind is
 * skipped with the reason, never silently passed.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { IndexedSource } from "../src/cite/indexed-source.js";
import type { Citation, Verification } from "../src/core/contracts.js";
import { helperScript, productJsRoot } from "./helper-script.js";
import { sha256Hex } from "./oracle.js";

const NOBODY = 65534;

/** How the `unreadable` mutation is carried out in this run. */
export type PermissionSupport =
  | { mode: "in-process"; note: string }
  | { mode: "worker"; note: string; worker: NobodyWorker }
  | { mode: "skip"; note: string };

/** A verification request for the unprivileged worker. */
export interface WorkerRequest {
  citation: Citation | Record<string, unknown>;
  /** The collection's record for the citation's document id (the worker cannot open the index). */
  indexed: IndexedSource | undefined;
  baseDir: string | undefined;
  snapshotDir: string;
  originalText: string | undefined;
}

/** Client of the `nobody` verification worker. */
export class NobodyWorker {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: Verification) => void; reject: (e: Error) => void }>();

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on("line", (line) => {
      const msg = JSON.parse(line) as { id?: number; verification?: Verification; error?: string };
      if (msg.id === undefined) return;
      const w = this.waiting.get(msg.id);
      if (!w) return;
      this.waiting.delete(msg.id);
      if (msg.verification) w.resolve(msg.verification);
      else w.reject(new Error(msg.error ?? "worker error"));
    });
    child.on("exit", () => {
      for (const w of this.waiting.values()) w.reject(new Error("the nobody worker exited"));
      this.waiting.clear();
    });
  }

  /** Start the worker as `nobody`; resolves once it has loaded the product. */
  static async start(scratch: string): Promise<NobodyWorker> {
    const script = await helperScript("perm-worker", scratch);
    const child = spawn(process.execPath, [script, productJsRoot()], {
      uid: NOBODY,
      gid: NOBODY,
      cwd: scratch,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    await new Promise<void>((resolve, reject) => {
      const rl = createInterface({ input: child.stdout });
      rl.once("line", (line) => {
        rl.close();
        const msg = JSON.parse(line) as { ready?: boolean; uid?: number };
        if (msg.ready && msg.uid === NOBODY) resolve();
        else reject(new Error(`unexpected worker greeting ${line}`));
      });
      child.once("exit", (code) => reject(new Error(`the nobody worker exited (${code}): ${stderr.trim()}`)));
      child.once("error", reject);
    });
    return new NobodyWorker(child);
  }

  /** Verify one citation as `nobody`. */
  verify(req: WorkerRequest): Promise<Verification> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.stdin.write(JSON.stringify({ id, ...req }) + "\n");
    });
  }

  /** Stop the worker. */
  close(): void {
    this.child.stdin.end();
    this.child.kill("SIGTERM");
  }
}

/** Decide how `unreadable` runs here (`scratch` must be a directory others can traverse). */
export async function probePermissions(scratch: string): Promise<PermissionSupport> {
  const dir = join(scratch, "perm-probe");
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  chmodSync(dir, 0o755);
  const file = join(dir, "probe.md");
  const text = "probe text\n";
  writeFileSync(file, text, { mode: 0o644 });
  try {
    chmodSync(file, 0o000);
    let blocked = false;
    try {
      readFileSync(file);
    } catch (err) {
      blocked = (err as NodeJS.ErrnoException).code === "EACCES";
    }
    if (blocked) return { mode: "in-process", note: "chmod 000 blocks reads for this user; verified in-process" };
    if (process.getuid?.() !== 0) {
      return { mode: "skip", note: "chmod 000 does not block reads and this process cannot switch users" };
    }
    let worker: NobodyWorker;
    try {
      worker = await NobodyWorker.start(scratch);
    } catch (err) {
      return { mode: "skip", note: `running as root and the nobody worker could not start: ${(err as Error).message}` };
    }
    const citation = {
      document_id: "probe",
      chunk_id: "probe",
      source: file,
      source_class: "text",
      extractor: null,
      start_offset: 0,
      end_offset: 10,
      start_line: 1,
      end_line: 1,
      text_hash: sha256Hex("probe text"),
    };
    const probeIndexed: IndexedSource = { source: file, source_class: "text", extractor: null };
    const denied = await worker.verify({ citation, indexed: probeIndexed, baseDir: dir, snapshotDir: join(dir, "snapshots"), originalText: undefined });
    chmodSync(file, 0o644);
    const allowed = await worker.verify({ citation, indexed: probeIndexed, baseDir: dir, snapshotDir: join(dir, "snapshots"), originalText: undefined });
    if (denied.verdict !== "unresolvable" || allowed.verdict !== "verified") {
      worker.close();
      return { mode: "skip", note: `the nobody worker probe did not behave (denied: ${denied.verdict}, allowed: ${allowed.verdict})` };
    }
    return { mode: "worker", note: "running as root (chmod 000 does not block root): verified by a worker running as nobody", worker };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

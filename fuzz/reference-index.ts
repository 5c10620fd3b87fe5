/**
 * Clean runs as the yardstick: ingest a versioned corpus with the real CLI
 * into a fresh index once per version, and record what each document looks
 * like there (content hash, exact chunk list). The crash torture compares
 * killed runs with it; the soak checks every search hit against it.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { basename, join } from "node:path";
import { cliPath } from "./helper-script.js";
import { inspectIndex, structuralViolations, type IndexInspection, type StoredDocState } from "./index-check.js";
import { inspectPostgresIndex } from "./index-check-postgres.js";
import { writeToolConfig, type StoreTarget } from "./store-target.js";
import { isUrlDoc, placeCorpus, sourceOf, VERSIONS, type TortureDoc } from "./torture-corpus.js";
import type { PageServer } from "./world.js";

/** A versioned corpus placed in a work directory. */
export interface CorpusEnv {
  work: string;
  docsDir: string;
  server: PageServer;
  docs: TortureDoc[];
  collection: string;
  dense: boolean;
  /** The store the collections live in (default: SQLite files in each index dir). */
  store?: StoreTarget | undefined;
}

/** source → version → how a clean run stores that document at that version. */
export type Reference = Map<string, Map<number, StoredDocState>>;

/** The collection's SQLite file. */
export function dbPath(indexDir: string, collection: string): string {
  return join(indexDir, `${collection}.sqlite3`);
}

/** The collection's snapshot directory. */
export function snapshotDir(indexDir: string, collection: string): string {
  return join(indexDir, `${collection}.snapshots`);
}

/** The store of index dir `indexDir` on PostgreSQL: a schema prefix of its own, named after the directory. */
function storeTag(indexDir: string): string {
  return basename(indexDir);
}

/** Read a collection's state, from its SQLite file or its PostgreSQL schema (and its snapshot directory either way). */
export async function inspectCollection(env: CorpusEnv, indexDir: string): Promise<IndexInspection> {
  const config = env.store?.configFor(storeTag(indexDir));
  const snapshots = snapshotDir(indexDir, env.collection);
  return config ? inspectPostgresIndex(config, env.collection, snapshots) : inspectIndex(dbPath(indexDir, env.collection), snapshots);
}

/** Arguments (after `node`) of the CLI ingest of the whole corpus. */
export function ingestArgs(env: CorpusEnv, indexDir: string): string[] {
  const urls = env.docs.filter(isUrlDoc).map((d) => sourceOf(d, env.docsDir, env.server));
  const config = env.store?.kind === "postgres" ? ["--config", writeToolConfig(env.store, storeTag(indexDir), `${indexDir}.config.json`)] : [];
  return [
    cliPath(),
    "ingest",
    env.docsDir,
    ...urls,
    "--allow-private-network",
    "--index-dir",
    indexDir,
    "--collection",
    env.collection,
    "--json",
    "--no-progress",
    ...config,
    ...(env.dense ? ["--dense"] : []),
  ];
}

/** Run a CLI ingest of the corpus to completion. */
export function ingestClean(env: CorpusEnv, indexDir: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ingestArgs(env, indexDir), { cwd: env.work, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) => resolve({ code, stderr }));
  });
}

/** Ingest each version cleanly into a scratch index and record every document's state. */
export async function buildReference(env: CorpusEnv): Promise<Reference> {
  const ref: Reference = new Map();
  for (const v of VERSIONS) {
    placeCorpus(env.docs, new Map(env.docs.map((d) => [d.key, v])), env.docsDir, env.server);
    const dir = join(env.work, `ref-v${v}`);
    const res = await ingestClean(env, dir);
    if (res.code !== 0) throw new Error(`the clean reference ingest of version ${v} failed (${res.code}): ${res.stderr}`);
    const x = await inspectCollection(env, dir);
    const bad = structuralViolations(x);
    if (bad.length) throw new Error(`the clean reference index of version ${v} is inconsistent: ${bad.join("; ")}`);
    for (const doc of env.docs) {
      const source = sourceOf(doc, env.docsDir, env.server);
      const state = x.docs.get(source);
      if (!state) throw new Error(`the clean reference run did not index ${doc.key}`);
      if (!ref.has(source)) ref.set(source, new Map());
      ref.get(source)!.set(v, state);
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return ref;
}

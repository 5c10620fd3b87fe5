/**
 * A fuzz case's world: a scratch directory with a base dir of documents, an
 * "outside" directory (for escaping symlinks), an index dir with one
 * collection, and URL pages served by a local HTTP server. Built, ingested and
 * self-checked through the real library API; torn down after the case.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { openCollection, type Collection } from "../src/collection/index.js";
import { documentIdFor } from "../src/core/ids.js";
import { dropSchema } from "../src/store/postgres/open-schema.js";
import { PostgresStore } from "../src/store/postgres/postgres-store.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { Store } from "../src/store/store.js";
import { sha256Hex } from "./oracle.js";
import { classOf, contentTypeOf, extensionOf, modelContent, renderDoc, type DocSpec } from "./corpus-gen.js";
import type { StoreTarget } from "./store-target.js";

/** A local HTTP server for URL documents; counts requests so verification can be shown never to fetch. */
export class PageServer {
  private readonly pages = new Map<string, { type: string; body: Uint8Array }>();
  /** Requests served since start. */
  requests = 0;

  private constructor(
    private readonly server: Server,
    /** `http://127.0.0.1:<port>` */
    readonly base: string,
  ) {}

  /** Start on an ephemeral 127.0.0.1 port. */
  static async start(): Promise<PageServer> {
    const holder: { self?: PageServer } = {};
    const server = createServer((req, res) => {
      const self = holder.self;
      if (!self) return void res.writeHead(503).end();
      self.requests++;
      const page = self.pages.get((req.url ?? "").split("?")[0]!);
      if (!page) return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": page.type, "content-length": page.body.length });
      res.end(Buffer.from(page.body));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    holder.self = new PageServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return holder.self;
  }

  /** Serve `body` at `path`. */
  set(path: string, type: string, body: Uint8Array): void {
    this.pages.set(path, { type, body });
  }

  /** Stop serving `path` (404 from now on). */
  delete(path: string): void {
    this.pages.delete(path);
  }

  /** Stop the server. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

/** One document as placed in the world. */
export interface WorldDoc {
  spec: DocSpec;
  /** The document's source as recorded: an absolute path or a URL. */
  source: string;
  documentId: string;
  /** Path of the file (path documents) or of the snapshot (URL documents). */
  path: string;
  /** URL path on the page server (URL documents). */
  urlPath?: string;
  /** Bytes currently on disk (path documents) or served (URL documents). */
  bytes: Uint8Array;
  /** The bytes first placed (what the first ingest read). */
  placedBytes: Uint8Array;
  /** The content indexed at ingest (from the model). */
  content: string;
}

/** Everything a case runs against. */
export interface World {
  dir: string;
  docsDir: string;
  outsideDir: string;
  indexDir: string;
  snapshotDir: string;
  collectionName: string;
  col: Collection;
  /** A second handle on the store, used only to read index state (never to verify). */
  store: Store;
  docs: WorldDoc[];
  chunkSize: number;
  chunkOverlap: number;
  server: PageServer;
}

/** A harness problem (not a product verdict): the world could not be built as modelled. */
export class HarnessError extends Error {
  override name = "HarnessError";
}

const COLLECTION = "fuzz";

/** Worlds built so far: each gets its own PostgreSQL schema prefix. */
let worldsBuilt = 0;

async function openReadHandle(target: StoreTarget, tag: string, indexDir: string): Promise<Store> {
  const config = target.configFor(tag);
  return config ? await PostgresStore.open(config, COLLECTION, { create: false }) : SqliteStore.open(join(indexDir, `${COLLECTION}.sqlite3`), { create: false });
}

/** Drop a world's PostgreSQL collection through its read handle (SQLite files go with the directory). */
async function dropCollection(store: Store | undefined): Promise<void> {
  if (store instanceof PostgresStore) await dropSchema(store.pool, store.schema);
}

/** Make a world for `docs`, ingest it and check every document was indexed exactly as its model says. */
export async function buildWorld(
  root: string,
  label: string,
  docs: DocSpec[],
  chunk: { chunkSize: number; chunkOverlap: number },
  server: PageServer,
  target: StoreTarget,
): Promise<World> {
  const tag = `${label}_${worldsBuilt++}`;
  const dir = mkdtempSync(join(root, `${label}-`));
  chmodSync(dir, 0o755);
  const docsDir = join(dir, "docs");
  const outsideDir = join(dir, "outside");
  const indexDir = join(dir, "idx");
  mkdirSync(docsDir);
  mkdirSync(outsideDir);
  const urlPrefix = `/${label}`;
  const placed: WorldDoc[] = [];
  for (const spec of docs) {
    const bytes = await renderDoc(spec.model);
    const file = `${spec.name}${extensionOf(spec.kind)}`;
    if (classOf(spec.kind) === "snapshot") {
      const urlPath = `${urlPrefix}/${file}`;
      server.set(urlPath, contentTypeOf(spec.kind), bytes);
      const source = server.base + urlPath;
      const documentId = documentIdFor(source);
      placed.push({ spec, source, documentId, path: join(indexDir, `${COLLECTION}.snapshots`, documentId), urlPath, bytes, placedBytes: bytes, content: modelContent(spec.model) });
    } else {
      const sub = spec.dir ? join(docsDir, spec.dir) : docsDir;
      mkdirSync(sub, { recursive: true });
      const path = join(sub, file);
      writeFileSync(path, bytes);
      placed.push({ spec, source: path, documentId: documentIdFor(path), path, bytes, placedBytes: bytes, content: modelContent(spec.model) });
    }
  }
  const storeConfig = target.configFor(tag);
  const col = await openCollection({ indexDir, collection: COLLECTION, create: true, ...(storeConfig ? { store: storeConfig } : {}) });
  let store: Store | undefined;
  try {
    const urls = placed.filter((d) => d.urlPath).map((d) => d.source);
    const summary = await col.ingest([docsDir, ...urls], { ...chunk, allowPrivateNetwork: true });
    if (summary.failed.length > 0) {
      throw new HarnessError(`ingest refused a generated document: ${JSON.stringify(summary.failed)}`);
    }
    store = await openReadHandle(target, tag, indexDir);
    for (const d of placed) {
      const row = await store.getDocument(d.documentId);
      if (!row) throw new HarnessError(`${d.spec.kind} document ${d.spec.name} was not indexed (${JSON.stringify(summary)})`);
      if (row.content_hash !== sha256Hex(d.content)) {
        throw new HarnessError(
          `the ${d.spec.kind} model of ${d.spec.name} does not match what was indexed (model content ${JSON.stringify(d.content.slice(0, 200))}…)`,
        );
      }
    }
    return {
      dir,
      docsDir,
      outsideDir,
      indexDir,
      snapshotDir: join(indexDir, `${COLLECTION}.snapshots`),
      collectionName: COLLECTION,
      col,
      store,
      docs: placed,
      chunkSize: chunk.chunkSize,
      chunkOverlap: chunk.chunkOverlap,
      server,
    };
  } catch (err) {
    await col.close();
    try {
      if (!store && storeConfig) store = await PostgresStore.open(storeConfig, COLLECTION, { create: false });
      await dropCollection(store);
    } catch {
      // The world's own error is the one to report; a leftover schema dies with the throwaway cluster.
    }
    await store?.close();
    for (const d of placed) if (d.urlPath) server.delete(d.urlPath);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Close handles, drop served pages and remove the directory (restoring permissions first). */
export async function destroyWorld(world: World): Promise<void> {
  await world.col.close();
  await dropCollection(world.store);
  await world.store.close();
  for (const d of world.docs) if (d.urlPath) world.server.delete(d.urlPath);
  restorePermissions(world.dir);
  rmSync(world.dir, { recursive: true, force: true });
}

/** Make every directory under `dir` searchable again so a non-root user can delete it. */
function restorePermissions(dir: string): void {
  try {
    chmodSync(dir, 0o755);
  } catch {
    return;
  }
  for (const sub of ["docs", "docs/sub", "idx", `idx/${COLLECTION}.snapshots`]) {
    try {
      chmodSync(join(dir, sub), 0o755);
    } catch {
      // Not every world has every directory.
    }
  }
}

/** Write bytes to a path document and remember them. */
export function writeDocBytes(doc: WorldDoc, bytes: Uint8Array): void {
  writeFileSync(doc.path, bytes);
  doc.bytes = bytes;
}

/** Serve new bytes for a URL document (what the next ingest would fetch). */
export function servePage(world: World, doc: WorldDoc, bytes: Uint8Array): void {
  if (!doc.urlPath) throw new HarnessError("servePage on a path document");
  world.server.set(doc.urlPath, contentTypeOf(doc.spec.kind), bytes);
  doc.bytes = bytes;
}

/** Re-ingest the world the way it was first ingested (the base dir and every URL). */
export async function reingest(world: World): Promise<Awaited<ReturnType<Collection["ingest"]>>> {
  const urls = world.docs.filter((d) => d.urlPath).map((d) => d.source);
  return world.col.ingest([world.docsDir, ...urls], {
    chunkSize: world.chunkSize,
    chunkOverlap: world.chunkOverlap,
    allowPrivateNetwork: true,
  });
}

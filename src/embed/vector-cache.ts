/**
 * A persistent cache of document vectors keyed by (embedding identity, SHA-256
 * of the text), for runs that embed the same texts again — above all `grk
 * eval`, whose throwaway collection would otherwise re-embed a whole corpus on
 * every run. Only documents are cached (query embedding stays part of the
 * measured search latency). The file is derived data: delete it at any time.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { GroundkitError } from "../core/errors.js";
import { identityKey, type EmbeddingProvider } from "./provider.js";

/** What a cache saw since it was opened. */
export interface VectorCacheStats {
  /** Texts answered from the cache. */
  hits: number;
  /** Texts the model embedded. */
  misses: number;
  /** Wall time spent in the model for the misses. */
  embed_ms: number;
}

/** An open vector cache. */
export interface VectorCache {
  readonly file: string;
  readonly stats: VectorCacheStats;
  /** A provider that answers `embedDocuments` from the cache and embeds only the misses. */
  wrap(provider: EmbeddingProvider): EmbeddingProvider;
  close(): void;
}

const textHash = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();

/**
 * Open (creating) the cache file.
 *
 * @throws GroundkitError INVALID_CONFIG when the file cannot be opened as a cache
 * @example
 *   const cache = openVectorCache(join(cacheDir(), "eval-vectors.sqlite3"));
 *   const provider = cache.wrap(await createEmbeddingProvider({ provider: "local" }));
 */
export function openVectorCache(file: string): VectorCache {
  let db: Database.Database;
  try {
    mkdirSync(dirname(file), { recursive: true });
    db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 10000");
    db.exec(
      "CREATE TABLE IF NOT EXISTS vectors (identity TEXT NOT NULL, text_sha256 BLOB NOT NULL, vector BLOB NOT NULL, " +
        "PRIMARY KEY (identity, text_sha256)) WITHOUT ROWID",
    );
  } catch (err) {
    throw new GroundkitError(
      "INVALID_CONFIG",
      `Cannot open the embedding cache ${file}: ${err instanceof Error ? err.message : String(err)}. Delete it or pass another cache directory.`,
      { file },
      { cause: err },
    );
  }
  const get = db.prepare<[string, Buffer], { vector: Buffer }>("SELECT vector FROM vectors WHERE identity = ? AND text_sha256 = ?");
  const put = db.prepare<[string, Buffer, Buffer]>("INSERT OR REPLACE INTO vectors (identity, text_sha256, vector) VALUES (?, ?, ?)");
  const putMany = db.transaction((rows: Array<[string, Buffer, Buffer]>) => {
    for (const r of rows) put.run(...r);
  });
  const stats: VectorCacheStats = { hits: 0, misses: 0, embed_ms: 0 };

  return {
    file,
    stats,
    close: () => db.close(),
    wrap(provider) {
      const key = identityKey(provider.identity);
      const width = provider.identity.dimensions;
      return {
        identity: provider.identity,
        embedQuery: (text) => provider.embedQuery(text),
        // The provider is the process-wide one (embed/binding.ts): the cache does not own it, so never closes it.
        close: () => Promise.resolve(),
        async embedDocuments(texts, onProgress) {
          const hashes = texts.map(textHash);
          const out = new Array<Float32Array | undefined>(texts.length);
          const missing: number[] = [];
          hashes.forEach((h, i) => {
            const row = get.get(key, h);
            // A row of the wrong width cannot be ours: treat it as a miss and overwrite it.
            if (row !== undefined && row.vector.byteLength === width * 4) {
              out[i] = new Float32Array(new Uint8Array(row.vector).buffer);
            } else missing.push(i);
          });
          stats.hits += texts.length - missing.length;
          stats.misses += missing.length;
          const cached = texts.length - missing.length;
          if (missing.length > 0) {
            const t0 = performance.now();
            const fresh = await provider.embedDocuments(
              missing.map((i) => texts[i]!),
              onProgress ? (done) => onProgress(cached + done, texts.length) : undefined,
            );
            stats.embed_ms += performance.now() - t0;
            putMany(missing.map((i, j) => [key, hashes[i]!, Buffer.from(fresh[j]!.buffer, fresh[j]!.byteOffset, fresh[j]!.byteLength)]));
            missing.forEach((i, j) => (out[i] = fresh[j]!));
          } else onProgress?.(texts.length, texts.length);
          return out as Float32Array[];
        },
      };
    },
  };
}

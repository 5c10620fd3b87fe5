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
import { identityKey, type EmbeddingProgress, type EmbeddingProvider } from "./provider.js";

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
      const windowed = provider.embedDocumentWindows?.bind(provider);
      const embedRows = windowed ?? (async (texts: string[], onProgress?: EmbeddingProgress) => (await provider.embedDocuments(texts, onProgress)).map((v) => [v]));
      /** Each text's vectors (one, or one per window) from the cache, embedding only the misses with `embed`. */
      async function cached(
        texts: string[],
        onProgress: EmbeddingProgress | undefined,
        embed: (texts: string[], onProgress?: EmbeddingProgress) => Promise<Float32Array[][]>,
      ): Promise<Float32Array[][]> {
        const hashes = texts.map(textHash);
        const out = new Array<Float32Array[] | undefined>(texts.length);
        const missing: number[] = [];
        hashes.forEach((h, i) => {
          const row = get.get(key, h);
          // A row that is not whole vectors of this width cannot be ours: treat it as a miss and overwrite it.
          if (row !== undefined && row.vector.byteLength > 0 && row.vector.byteLength % (width * 4) === 0) {
            const all = new Float32Array(new Uint8Array(row.vector).buffer);
            out[i] = Array.from({ length: all.length / width }, (_, w) => all.slice(w * width, (w + 1) * width));
          } else missing.push(i);
        });
        stats.hits += texts.length - missing.length;
        stats.misses += missing.length;
        const hits = texts.length - missing.length;
        if (missing.length > 0) {
          const t0 = performance.now();
          const fresh = await embed(
            missing.map((i) => texts[i]!),
            onProgress ? (done) => onProgress(hits + done, texts.length) : undefined,
          );
          stats.embed_ms += performance.now() - t0;
          // A text's windows are stored one after another in one row.
          putMany(missing.map((i, j) => [key, hashes[i]!, Buffer.concat(fresh[j]!.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength)))]));
          missing.forEach((i, j) => (out[i] = fresh[j]!));
        } else onProgress?.(texts.length, texts.length);
        return out as Float32Array[][];
      }
      return {
        identity: provider.identity,
        embedQuery: (text) => provider.embedQuery(text),
        // The provider is the process-wide one (embed/binding.ts): the cache does not own it, so never closes it.
        close: () => Promise.resolve(),
        // A windowed provider's row holds every window, so its one-vector answer (the first window) is read from the same rows.
        embedDocuments: async (texts, onProgress) => (await cached(texts, onProgress, embedRows)).map((windows) => windows[0]!),
        ...(windowed !== undefined
          ? { embedDocumentWindows: (texts: string[], onProgress?: EmbeddingProgress) => cached(texts, onProgress, windowed) }
          : {}),
      };
    },
  };
}

/**
 * How a collection reads the sources it cites: the readers per source class,
 * the containment root of a document, and a citation check that shares one
 * read per source.
 */
import { resolve, sep } from "node:path";
import { DEFAULTS } from "../core/config.js";
import type { Citation } from "../core/contracts.js";
import { readExtractedSource } from "../cite/read-extracted-source.js";
import { readSnapshotSource } from "../cite/read-snapshot-source.js";
import type { SourceText } from "../cite/source-text.js";
import { checkCitation, type VerifyContext } from "../cite/verify.js";
import type { StoredChunk } from "../store/store.js";
import type { CollectionCore } from "./core.js";

/** How each source class obtains its current text. */
export function readers(core: CollectionCore) {
  return {
    collection: core.name,
    maxFileSize: DEFAULTS.maxFileSize,
    readExtracted: (c: Citation, realPath: string) => readExtractedSource(c, realPath, DEFAULTS.maxFileSize, core.options.extraction),
    readSnapshot: (c: Citation) => readSnapshotSource(c, core.snapshots),
  };
}

export function verifyContext(core: CollectionCore, chunk: StoredChunk, baseDir: string | undefined): VerifyContext {
  return {
    ...readers(core),
    indexed: chunk.document,
    baseDir: baseDir ? resolve(baseDir) : (chunk.document.base_dir ?? undefined),
    originalText: chunk.text,
  };
}

export async function baseDirs(core: CollectionCore): Promise<string[]> {
  return JSON.parse((await core.store.getMeta("base_dirs")) ?? "[]") as string[];
}

/** The deepest base dir recorded at ingest that lexically contains `source`. */
export async function recordedBaseDirFor(core: CollectionCore, source: string): Promise<string | undefined> {
  return (await baseDirs(core))
    .filter((d) => source.startsWith(d.endsWith(sep) ? d : d + sep))
    .sort((a, b) => b.length - a.length)[0];
}

/** Check a citation of this collection, sharing source reads through `readCache`. */
export async function checkWithCache(
  core: CollectionCore,
  citation: Citation,
  originalText: string | undefined,
  baseDir: string | undefined,
  readCache: Map<string, Promise<SourceText>>,
): ReturnType<typeof checkCitation> {
  const doc = await core.store.getDocument(citation.document_id);
  return checkCitation(citation, {
    ...readers(core),
    indexed: doc,
    baseDir: baseDir ? resolve(baseDir) : (doc?.base_dir ?? (doc && (await recordedBaseDirFor(core, doc.source)))),
    originalText,
    readCache,
  });
}

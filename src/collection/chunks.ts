/** A chunk and its citation: fetching one with a fresh verdict, verifying a citation on its own, and the parts a hit shows. */
import { resolve } from "node:path";
import { CitationSchema, type Citation, type Verification } from "../core/contracts.js";
import { GroundkitError } from "../core/errors.js";
import { codeSymbolLabel } from "../core/code-languages.js";
import { looksLikeIdPrefix, resolveIdPrefix } from "../core/id-prefix.js";
import { sha256, type CodePointText } from "../core/text.js";
import { formatIssues } from "../core/validation.js";
import { citationOf } from "../cite/citation.js";
import { textAsCited } from "../cite/as-cited.js";
import { checkCitation } from "../cite/verify.js";
import type { Store, StoredChunk } from "../store/store.js";
import type { CollectionCore } from "./core.js";
import { historyChunkView } from "./history.js";
import { readers, recordedBaseDirFor, verifyContext } from "./sources.js";
import type { ChunkView } from "./types.js";

/**
 * A chunk with its citation and a fresh verdict; with `contextChars`, the
 * source text around a verified span (read in the same pass as verification).
 */
export async function getChunk(
  core: CollectionCore,
  chunkId: string,
  opts: { baseDir?: string | undefined; contextChars?: number | undefined },
): Promise<ChunkView> {
  const chunk = await core.store.readSnapshot(async (s) => s.getChunk(await resolveChunkId(s, chunkId)));
  if (!chunk) {
    // A chunk an earlier version of its document had: shown as it was, verified against the document now.
    const kept = await historyChunkView(core.store, chunkId);
    if (!kept) throw new GroundkitError("CHUNK_NOT_FOUND", `No chunk ${chunkId} in collection '${core.name}'.`);
    return { ...kept, verification: await verify(core, kept.citation, { baseDir: opts.baseDir }), context: null };
  }
  const citation = citationOf(chunk);
  const { verification, content } = await checkCitation(citation, verifyContext(core, chunk, opts.baseDir));
  await addTextAsCited(core, citation, verification, content);
  const context = contextAround(verification, content, citation, opts.contextChars ?? 0);
  return {
    chunk_id: chunk.chunk_id,
    document_id: chunk.document.document_id,
    text: chunk.text,
    heading_path: chunk.heading_path,
    ...codeLabels(chunk),
    citation,
    verification,
    context,
  };
}

/**
 * Verify a citation on its own (no chunk row needed: it carries its text hash).
 * Only a source this collection indexed under the citation's document id is
 * read; any other citation is unresolvable, saying nothing about the file.
 * `originalText`, when given and matching the hash, lets a drift say where the text moved.
 */
export async function verify(
  core: CollectionCore,
  raw: unknown,
  opts: { baseDir?: string | undefined; originalText?: string | undefined },
): Promise<Verification> {
  const citation = parseCitation(raw);
  const { stored, doc, recordedBaseDir } = await core.store.readSnapshot(async (s) => {
    const doc = await s.getDocument(citation.document_id);
    return { stored: await s.getChunk(citation.chunk_id), doc, recordedBaseDir: doc && (await recordedBaseDirFor(core, doc.source, s)) };
  });
  const { verification, content } = await checkCitation(citation, {
    ...readers(core),
    indexed: doc,
    baseDir: opts.baseDir ? resolve(opts.baseDir) : (doc?.base_dir ?? recordedBaseDir),
    originalText: opts.originalText ?? (stored?.text_hash === citation.text_hash ? stored.text : undefined),
  });
  return addTextAsCited(core, citation, verification, content);
}

/**
 * A verdict other than `verified` carries the cited text as this collection last held it, when it still does
 * (docs/decisions/0031-document-history.md), and what the source says now where it was cited (or where it
 * moved), to set them side by side.
 */
async function addTextAsCited(core: CollectionCore, citation: Citation, verification: Verification, content: CodePointText | undefined): Promise<Verification> {
  if (verification.verdict === "verified") return verification;
  // Text unchanged at its code points (only its lines or pages moved): the source says what was cited.
  if (content && !verification.relocated && sha256(content.slice(citation.start_offset, citation.end_offset)) === citation.text_hash) return verification;
  const asCited = await textAsCited(core.store, citation);
  if (!asCited) return verification;
  verification.as_cited = asCited;
  const at = verification.relocated ?? { start_offset: citation.start_offset, end_offset: citation.end_offset };
  // Text relocated into another document: what that document says is its own citation's business, not shown here.
  const elsewhere = verification.relocated?.document_id !== undefined && verification.relocated.document_id !== citation.document_id;
  if (content && !elsewhere && at.start_offset < content.length) verification.current_text = content.slice(at.start_offset, Math.min(at.end_offset, content.length));
  return verification;
}

/** A full chunk id for an id or a unique prefix of one (unchanged when nothing matches). */
async function resolveChunkId(store: Store, ref: string): Promise<string> {
  if (!looksLikeIdPrefix(ref) || (await store.getChunk(ref))) return ref;
  return (await resolveIdPrefix("chunk", ref, (p, n) => store.chunkIdsWithPrefix(p, n))) ?? ref;
}

/** Source text each side of a verified span; null when unverified or not asked for. */
export function contextAround(
  verification: Verification,
  content: CodePointText | undefined,
  citation: Citation,
  chars: number,
): { before: string; after: string } | null {
  if (verification.verdict !== "verified" || !content || chars <= 0) return null;
  return {
    before: content.slice(Math.max(0, citation.start_offset - chars), citation.start_offset),
    after: content.slice(citation.end_offset, Math.min(content.length, citation.end_offset + chars)),
  };
}

/** Accept a bare citation or a search hit (`{citation, text}`) and validate it. */
export function parseCitation(raw: unknown): Citation {
  const candidate = (raw as { citation?: unknown } | null)?.citation ?? raw;
  const parsed = CitationSchema.safeParse(candidate);
  if (!parsed.success) {
    throw new GroundkitError("INVALID_CITATION", `Not a valid citation: ${formatIssues(parsed.error, { max: 3 })}.`);
  }
  return parsed.data;
}

/** A hit's `lang` and `symbol` for a chunk of a code or configuration file (nothing for others). */
export function codeLabels(chunk: StoredChunk): { lang?: string; symbol?: string } {
  const lang = chunk.code?.lang;
  const symbol = chunk.code ? codeSymbolLabel(chunk.code) : null;
  return { ...(lang !== undefined ? { lang } : {}), ...(symbol !== null ? { symbol } : {}) };
}

/**
 * The cited text as the collection last held it: in the version indexed now
 * (its source changed since the ingest), else in the newest previous version
 * that holds it (store/history.ts). Found only when the slice at the citation's
 * offsets hashes to its text hash, so nothing that merely resembles the cited
 * text is ever shown as it.
 */
import type { AsCited, Citation } from "../core/contracts.js";
import { CodePointText, sha256 } from "../core/text.js";
import { assembleVersion, type HistorySpan, type HistoryVersion } from "../store/history.js";
import type { Store } from "../store/store.js";

/** What a citation's text was, or undefined when neither the index nor its history holds it. */
export async function textAsCited(
  store: Pick<Store, "getDocument" | "chunkIdAt" | "getChunk" | "historyOf" | "historySpans">,
  citation: Citation,
): Promise<AsCited | undefined> {
  const { document_id, start_offset: start, end_offset: end, text_hash } = citation;
  const doc = await store.getDocument(document_id);
  if (doc) {
    const chunkId = await store.chunkIdAt(document_id, start);
    const chunk = chunkId === undefined ? undefined : await store.getChunk(chunkId);
    const text = chunk && sliceSpan(chunk, start, end);
    if (text !== undefined && sha256(text) === text_hash) return { text, version: 0, ingested_at: doc.ingested_at, source: doc.source };
  }
  const versions = await store.historyOf(document_id);
  for (let i = 0; i < versions.length; i++) {
    const v = versions[i]!;
    if (end > v.content_length) continue;
    const spans = await store.historySpans(v.version_id);
    const inOne = spans.find((s) => s.start_offset <= start && s.end_offset >= end);
    const text = inOne ? sliceSpan(inOne, start, end) : new CodePointText(assembleVersion(v, spans).text).slice(start, end);
    if (text !== undefined && sha256(text) === text_hash) return { text, version: i + 1, ingested_at: v.ingested_at, source: v.source };
  }
  return undefined;
}

/** The code points [start, end) of a document out of a chunk that holds them (undefined when it does not). */
function sliceSpan(span: Pick<HistorySpan, "start_offset" | "end_offset" | "text">, start: number, end: number): string | undefined {
  if (span.text === null || span.start_offset > start || span.end_offset < end) return undefined;
  return new CodePointText(span.text).slice(start - span.start_offset, end - span.start_offset);
}

/**
 * The whole cited document as it was when cited. Of the versions (indexed now,
 * then kept, newest first) whose text at the citation's offsets hashes to its
 * text hash (put back together from their chunks, store/history.ts): the first
 * that has the cited chunk; else the first at the cited source; else, when the
 * document moved since (it is at another source now), the newest kept one;
 * else the first. Undefined when none holds it. Used to tell which copy of a
 * repeated text a citation named (choose-place.ts). The hash alone is not
 * enough: a document that moved with edits may hold another copy of the text
 * at the cited offsets now (ADR 0037), and its current version then hashes
 * right there though it is not the version that was cited. (A version kept
 * when a document moved with edits records the source it moved to: the move
 * is written before the new content replaces the old.)
 */
export async function documentAsCited(
  store: Pick<Store, "getDocument" | "chunksOf" | "historyOf" | "historySpans">,
  citation: Citation,
): Promise<CodePointText | undefined> {
  const held: Array<{ content: CodePointText; hasChunk: boolean; atSource: boolean; kept: boolean }> = [];
  const consider = (version: VersionOf, spans: ReadonlyArray<VersionSpan>, kept: boolean): boolean => {
    const content = new CodePointText(assembleVersion(version, spans).text);
    if (citation.end_offset > content.length || sha256(content.slice(citation.start_offset, citation.end_offset)) !== citation.text_hash) return false;
    const hasChunk = spans.some((s) => s.chunk_id === citation.chunk_id);
    held.push({ content, hasChunk, atSource: version.source === citation.source, kept });
    return hasChunk;
  };
  const doc = await store.getDocument(citation.document_id);
  if (doc && consider(doc, await store.chunksOf(doc.document_id), false)) return held[0]!.content;
  for (const v of await store.historyOf(citation.document_id)) {
    if (citation.end_offset > v.content_length) continue;
    if (consider(v, await store.historySpans(v.version_id), true)) return held[held.length - 1]!.content;
  }
  const movedSince = doc !== undefined && doc.source !== citation.source;
  return (held.find((h) => h.atSource) ?? (movedSince ? held.find((h) => h.kept) : undefined) ?? held[0])?.content;
}

/** What a version needs for {@link documentAsCited}: its recorded length and hash, and its source then. */
type VersionOf = Pick<HistoryVersion, "content_hash" | "content_length" | "source">;
/** What a version's chunk needs for {@link documentAsCited}. */
type VersionSpan = Pick<HistorySpan, "chunk_id" | "start_offset" | "end_offset" | "start_line" | "text">;

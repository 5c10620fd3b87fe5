/**
 * Reading an indexed document's current text by its stored row, as a
 * verification of it would: the row vouches for the source (ADR 0005), then
 * containment, the recorded extractor or the stored snapshot. Used to look
 * for cited text in documents other than the cited one (find-elsewhere.ts).
 */
import type { Citation } from "../core/contracts.js";
import { sha256, type CodePointText } from "../core/text.js";
import type { Store, StoredDocument } from "../store/store.js";
import { documentAsCited, textAsCited } from "./as-cited.js";
import { citedTextFromIndex } from "./find-elsewhere.js";
import type { DocumentFields } from "./span-citation.js";
import type { SourceText } from "./source-text.js";
import { codePointsOf, obtainContent, type ElsewhereContext, type VerifyContext } from "./verify.js";

/**
 * An empty citation at the start of a document: checking or reading it goes
 * through the usual rules (indexed source, containment, class) and yields the
 * document's current text. Only its document fields matter.
 */
export function wholeDocumentCitation(doc: DocumentFields): Citation {
  return {
    document_id: doc.document_id,
    chunk_id: "",
    source: doc.source,
    source_class: doc.source_class,
    extractor: doc.extractor,
    start_offset: 0,
    end_offset: 0,
    start_line: 1,
    end_line: 1,
    page_start: null,
    page_end: null,
    text_hash: sha256(""),
  };
}

/** `doc`'s current text; `ctx.baseDir` must be the containment root of `doc` (its recorded base dir). */
export async function readIndexedDocument(
  doc: StoredDocument,
  ctx: Omit<VerifyContext, "indexed" | "originalText" | "elsewhere">,
): Promise<{ source: SourceText; content: CodePointText }> {
  const source = await obtainContent(wholeDocumentCitation(doc), { ...ctx, indexed: doc });
  return { source, content: codePointsOf(source) };
}

/**
 * The {@link ElsewhereContext} of a collection: its store's lookups, and reads
 * of its documents each under its own containment root (`baseDirOf`).
 */
export function elsewhereIn(
  store: Pick<Store, "getDocument" | "getChunk" | "chunksWithTextHash" | "searchLexical" | "chunkIdAt" | "chunksOf" | "historyOf" | "historySpans">,
  readers: Omit<VerifyContext, "indexed" | "originalText" | "elsewhere" | "baseDir">,
  baseDirOf: (doc: StoredDocument) => Promise<string | undefined>,
): ElsewhereContext {
  return {
    store,
    // The index's text first; else what the document said when it was cited (kept history, ADR 0031).
    citedText: async (citation) => (await citedTextFromIndex(citation, store)) ?? (await textAsCited(store, citation))?.text,
    documentAsCited: (citation) => documentAsCited(store, citation),
    read: async (doc) => readIndexedDocument(doc, { ...readers, baseDir: await baseDirOf(doc) }),
  };
}

/**
 * Verification: re-read a citation's source and say whether the cited span
 * still holds. The order is fixed: the citation must name a document the
 * collection indexed, with that source and class (else nothing is read); then
 * classify the source, check containment, obtain the text per source class,
 * compare. Containment runs before any read or extractor lookup.
 */
import { isAbsolute } from "node:path";
import type { Citation, Verification } from "../core/contracts.js";
import { resolveContained } from "../core/containment.js";
import { GroundkitError } from "../core/errors.js";
import { CodePointText, sha256 } from "../core/text.js";
import { isUrlSource } from "../net/url-shape.js";
import { assertIndexedSource, type IndexedSource } from "./indexed-source.js";
import { ResolutionError, unresolvable } from "./resolution-error.js";
import { readTextSource } from "./read-text-source.js";

/** Everything verification needs besides the citation. */
export interface VerifyContext {
  /** The collection's name (for details). */
  collection: string;
  /**
   * The collection's record for the citation's document id, undefined when it
   * has none. Only a source recorded here is ever read.
   */
  indexed: IndexedSource | undefined;
  /** Containment root for path sources (the base dir recorded at ingest, or --base-dir). */
  baseDir: string | undefined;
  /** Largest source that will be re-read. */
  maxFileSize: number;
  /** The text originally cited, when known (used only after its hash checks out) to say where it moved. */
  originalText?: string | undefined;
  /** Obtain an extracted document's current text (re-runs the recorded extractor). */
  readExtracted?: ((citation: Citation, realPath: string) => Promise<string>) | undefined;
  /** Obtain a snapshot document's stored text. */
  readSnapshot?: ((citation: Citation) => Promise<string>) | undefined;
  /**
   * Share reads between citations checked together (one search's hits): the
   * same source is read, or re-extracted, once. Containment is still checked
   * per citation; only the read after it is shared. Failures are not cached.
   */
  readCache?: Map<string, Promise<string>> | undefined;
}

/** Re-check a citation against its source: verified, drifted or unresolvable, always with a detail. */
export async function verifyCitation(citation: Citation, ctx: VerifyContext): Promise<Verification> {
  return (await checkCitation(citation, ctx)).verification;
}

/** As {@link verifyCitation}, also returning the source content that was read (when it could be). */
export async function checkCitation(
  citation: Citation,
  ctx: VerifyContext,
): Promise<{ verification: Verification; content?: CodePointText }> {
  try {
    assertIndexedSource(citation, ctx.indexed, ctx.collection);
    const content = new CodePointText(await obtainContent(citation, ctx));
    return { verification: compare(citation, content, ctx.originalText), content };
  } catch (err) {
    if (err instanceof ResolutionError) return { verification: { verdict: err.verdict, detail: err.detail } };
    throw err;
  }
}

/** Run `read` once per key within a shared cache; a failed read is forgotten so errors stay per citation. */
function cached(ctx: VerifyContext, key: string, read: () => Promise<string>): Promise<string> {
  const cache = ctx.readCache;
  if (!cache) return read();
  let p = cache.get(key);
  if (!p) {
    p = read();
    cache.set(key, p);
    p.catch(() => cache.delete(key));
  }
  return p;
}

async function obtainContent(citation: Citation, ctx: VerifyContext): Promise<string> {
  if (citation.source_class === "snapshot") {
    const readSnapshot = ctx.readSnapshot;
    if (!readSnapshot) throw unresolvable("snapshot citations need the collection's snapshot store to verify.");
    return cached(ctx, `snapshot\0${citation.document_id}\0${citation.source}`, () => readSnapshot(citation));
  }
  if (isUrlSource(citation.source)) {
    throw unresolvable(`a URL source must be a snapshot citation; this one says '${citation.source_class}'.`);
  }
  if (!isAbsolute(citation.source)) throw unresolvable("the citation's source is not an absolute path.");
  if (!ctx.baseDir) {
    throw unresolvable("no base directory is recorded for this source; pass --base-dir to check containment.");
  }
  const realPath = await containedPath(citation.source, ctx.baseDir);
  if (citation.source_class === "extracted") {
    const readExtracted = ctx.readExtracted;
    if (!readExtracted) throw unresolvable("extracted citations need the extractor registry to verify.");
    return cached(ctx, `extracted\0${realPath}\0${citation.extractor ?? ""}`, () => readExtracted(citation, realPath));
  }
  return cached(ctx, `text\0${realPath}`, () => readTextSource(realPath, citation.source, ctx.maxFileSize));
}

async function containedPath(source: string, baseDir: string): Promise<string> {
  try {
    return await resolveContained(source, baseDir);
  } catch (err) {
    if (!(err instanceof GroundkitError)) throw err;
    if (err.code === "PATH_ESCAPES_BASE") {
      throw unresolvable(`the source resolves outside the base directory ${baseDir}; refused before reading.`);
    }
    if (err.code === "SOURCE_NOT_FOUND") throw unresolvable("the source file no longer exists.");
    throw unresolvable(`the source cannot be read: ${err.message}`);
  }
}

function compare(citation: Citation, text: CodePointText, originalText: string | undefined): Verification {
  const { start_offset: start, end_offset: end } = citation;
  if (end > text.length) {
    return {
      verdict: "drifted",
      detail: `the source is now ${text.length} code points long; the cited span ends at ${end}.${relocationHint(text, citation, originalText)}`,
      relocated: relocate(text, citation, originalText),
    };
  }
  if (sha256(text.slice(start, end)) === citation.text_hash) {
    return { verdict: "verified", detail: `the text at code points ${start}-${end} matches the cited hash.` };
  }
  const moved = relocate(text, citation, originalText);
  return {
    verdict: "drifted",
    detail: `the text at code points ${start}-${end} differs from what was cited.${relocationHint(text, citation, originalText)}`,
    relocated: moved,
  };
}

/** Where the original text now sits (nearest occurrence to the old start), if it is known and present. */
function relocate(
  text: CodePointText,
  citation: Citation,
  originalText: string | undefined,
): { start_offset: number; end_offset: number } | undefined {
  if (originalText === undefined || sha256(originalText) !== citation.text_hash || originalText.length === 0) return undefined;
  let best: number | undefined;
  for (let at = text.indexOf(originalText); at >= 0; at = text.indexOf(originalText, at + 1)) {
    if (best === undefined || Math.abs(at - citation.start_offset) < Math.abs(best - citation.start_offset)) best = at;
    if (at > citation.start_offset) break;
  }
  if (best === undefined) return undefined;
  const length = citation.end_offset - citation.start_offset;
  return { start_offset: best, end_offset: best + length };
}

function relocationHint(text: CodePointText, citation: Citation, originalText: string | undefined): string {
  const moved = relocate(text, citation, originalText);
  if (!moved) return originalText === undefined ? "" : " The cited text no longer occurs in the source.";
  const lines = text.lineRange(moved.start_offset, moved.end_offset);
  return ` The cited text now sits at code points ${moved.start_offset}-${moved.end_offset} (lines ${lines.startLine}-${lines.endLine}).`;
}

/**
 * Verification: re-read a citation's source and say whether the cited span
 * still holds. The order is fixed: the citation must name a document the
 * collection indexed, with that source and class (else nothing is read); then
 * classify the source, check containment, obtain the text per source class,
 * compare. Containment runs before any read or extractor lookup. The text, its
 * lines and its pages are all part of what a citation claims: `verified` means
 * all of them still hold.
 */
import { isAbsolute } from "node:path";
import type { Citation, Verification } from "../core/contracts.js";
import { resolveContained } from "../core/containment.js";
import { GroundkitError } from "../core/errors.js";
import { formerSources } from "../core/ids.js";
import { locationLabel, type LocationMap } from "../core/locations.js";
import { pageRange } from "../core/pages.js";
import { sourceLineRange, type SourceLineMap } from "../core/source-lines.js";
import { CodePointText, codePointLength, sha256 } from "../core/text.js";
import { isUrlSource } from "../net/url-shape.js";
import { ATTR, withSpan } from "../obs/tracing.js";
import { choosePlace, occurrencesOf, repeatedWhenCited, type Place } from "./choose-place.js";
import { findElsewhere, MAX_PLACES, type ElsewhereLookup, type FoundElsewhere } from "./find-elsewhere.js";
import { assertIndexedSource, type IndexedSource } from "./indexed-source.js";
import { ResolutionError, unresolvable } from "./resolution-error.js";
import { readTextSource } from "./read-text-source.js";
import type { SourceText } from "./source-text.js";

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
  /** Obtain an extracted document's current text and pages (re-runs the recorded extractor). */
  readExtracted?: ((citation: Citation, realPath: string) => Promise<SourceText>) | undefined;
  /** Obtain a snapshot document's stored text. */
  readSnapshot?: ((citation: Citation) => Promise<string>) | undefined;
  /**
   * Share reads between citations checked together (one search's hits): the
   * same source is read, or re-extracted, once. Containment is still checked
   * per citation; only the read after it is shared. Failures are not cached.
   */
  readCache?: Map<string, Promise<SourceText>> | undefined;
  /**
   * How to look for the cited text in the collection's other documents when it
   * is not where the citation says (find-elsewhere.ts); absent: only the cited
   * document is checked.
   */
  elsewhere?: ElsewhereContext | undefined;
}

/** What looking elsewhere needs: the index lookups, and the cited text when the caller did not give it. */
export interface ElsewhereContext extends ElsewhereLookup {
  /** The cited text as the collection knows it, by the citation's hash (undefined when it does not). */
  citedText(citation: Citation): Promise<string | undefined>;
  /** The cited document as it was when cited (the index or its kept history), undefined when neither holds it. */
  documentAsCited(citation: Citation): Promise<CodePointText | undefined>;
}

/** A verification and, when the source could be read, what was read. */
export interface CheckedCitation {
  verification: Verification;
  content?: CodePointText;
  pageStarts?: readonly number[] | undefined;
  sourceLines?: SourceLineMap | undefined;
  locations?: LocationMap | undefined;
}

/** Re-check a citation against its source: verified, drifted or unresolvable, always with a detail. */
export async function verifyCitation(citation: Citation, ctx: VerifyContext): Promise<Verification> {
  return (await checkCitation(citation, ctx)).verification;
}

/** As {@link verifyCitation}, also returning the source content that was read (when it could be) and where its pages start. */
export async function checkCitation(
  citation: Citation,
  ctx: VerifyContext,
): Promise<CheckedCitation> {
  const attributes = { [ATTR.collection]: ctx.collection, [ATTR.sourceClass]: citation.source_class };
  return withSpan("groundkit.verify", attributes, async (span) => {
    const checked = await checkUntraced(citation, ctx);
    span.setAttribute(ATTR.verdict, checked.verification.verdict);
    return checked;
  });
}

async function checkUntraced(
  citation: Citation,
  ctx: VerifyContext,
): Promise<CheckedCitation> {
  // A document that moved keeps its id: a citation of a source it had is checked at its current source.
  const movedTo =
    ctx.indexed && ctx.indexed.source !== citation.source && formerSources(ctx.indexed.metadata).includes(citation.source)
      ? ctx.indexed.source
      : undefined;
  const cited = movedTo === undefined ? citation : { ...citation, source: movedTo };
  const moveNote = movedTo === undefined ? "" : `the document moved from ${citation.source} to ${movedTo}; `;
  try {
    assertIndexedSource(cited, ctx.indexed, ctx.collection);
    const source = await obtainContent(cited, ctx);
    const content = codePointsOf(source);
    const current = { content, pageStarts: source.pageStarts, sourceLines: source.sourceLines, locations: source.locations };
    const { start_offset: start, end_offset: end } = citation;
    const textHere = end <= content.length && sha256(content.slice(start, end)) === citation.text_hash;
    const verification = compare(cited, current);
    if (textHere && movedTo === undefined) return { verification, ...current };
    if (textHere && !(await mayBeAnotherCopy(citation, ctx, content))) {
      return { verification: followedMove(citation, movedTo!, moveNote, current, verification), ...current };
    }
    if (textHere) {
      const why = `${moveNote}the cited text is at code points ${start}-${end}, but the document changed since it was cited and holds the text more than once.`;
      const placed = await placeElsewhere(citation, ctx, why, { doc: cited, ...current });
      if (placed) return placed;
    }
    const placed = await placeElsewhere(citation, ctx, moveNote + verification.detail, { doc: cited, ...current });
    return placed ?? { verification: { ...verification, detail: moveNote + verification.detail }, ...current };
  } catch (err) {
    if (!(err instanceof ResolutionError)) throw err;
    // Only for a source that is gone (deleted, or no longer indexed), never one refused (outside its base directory,
    // unreadable, another class or extractor: ADR 0005); and only in the other documents, the cited one could not be read.
    const placed = err.gone ? await placeElsewhere(citation, ctx, moveNote + err.detail, undefined) : undefined;
    return placed ?? { verification: { verdict: err.verdict, detail: moveNote + err.detail } };
  }
}

/**
 * Whether the cited text at its offsets in a moved document may be another
 * copy of it (ADR 0037): the document moved with edits (a rename with edits,
 * or most of a merge) and holds the text more than once, so a copy that was
 * elsewhere may have come to sit at the cited offsets. A document unchanged
 * since the citation (or whose past is not known) is taken at its offsets.
 */
async function mayBeAnotherCopy(citation: Citation, ctx: VerifyContext, content: CodePointText): Promise<boolean> {
  if (occurrencesOf(content, content.slice(citation.start_offset, citation.end_offset), 2).length < 2) return false;
  const then = await ctx.elsewhere?.documentAsCited(citation);
  return then !== undefined && then.text !== content.text;
}

/**
 * The verdict for the text of a moved document found in it (at its offsets or
 * relocated in it): always `drifted`, since the citation names the old source,
 * with the new source, document and lines in `relocated`.
 */
function followedMove(citation: Citation, movedTo: string, moveNote: string, current: Current, verification: Verification): Verification {
  const { start_offset, end_offset } = verification.relocated ?? citation;
  const lines = current.content.lineRange(start_offset, end_offset);
  const relocated = { start_offset, end_offset, document_id: citation.document_id, source: movedTo, start_line: lines.startLine, end_line: lines.endLine };
  if (verification.relocated) return { verdict: "drifted", detail: moveNote + verification.detail, relocated };
  const there = `the cited text is there at code points ${start_offset}-${end_offset} (${span("line", lines.startLine, lines.endLine)}).`;
  return { verdict: "drifted", detail: moveNote + there, relocated };
}

/** The cited document as read now (its source may be a moved document's new one). */
interface CitedNow extends Current {
  doc: Citation;
}

/** An occurrence of the cited text now: in the cited document, or in another indexed one. */
type FoundPlace = Place & ({ inCited: true; now: CitedNow } | { inCited: false; found: FoundElsewhere });

/**
 * Where the cited text went, when it is not at the citation's place: a
 * `drifted` verification relocating it, naming several places without a
 * choice, or saying it no longer occurs; undefined when the cited text is not
 * known (neither given nor in the index) and nothing can be said. `now` is the
 * cited document as just read (undefined when it could not be read). The
 * occurrences in it and, unless the one there is plainly the cited one, in
 * the collection's other documents are the places choose-place.ts chooses from.
 */
async function placeElsewhere(citation: Citation, ctx: VerifyContext, why: string, now: CitedNow | undefined): Promise<CheckedCitation | undefined> {
  const text = trustedOriginal(citation, ctx.originalText) ?? (await ctx.elsewhere?.citedText(citation));
  if (text === undefined || sha256(text) !== citation.text_hash) return undefined;
  const places: FoundPlace[] = now ? occurrencesOf(now.content, text, MAX_PLACES).map((at) => ({ content: now.content, at, inCited: true, now })) : [];
  const then = ctx.elsewhere && (await ctx.elsewhere.documentAsCited(citation));
  const span = then && { content: then, start: citation.start_offset, end: citation.end_offset };
  // The one occurrence left in the cited document, of a text it held once when cited, is the cited one.
  const plainlyHere = places.length === 1 && span !== undefined && !repeatedWhenCited(span, text);
  if (ctx.elsewhere && !plainlyHere) {
    for (const found of await findElsewhere(citation, text, ctx.elsewhere, MAX_PLACES - places.length)) places.push({ content: found.content, at: found.at, inCited: false, found });
  }
  // Found as often as places are looked at: the one it became may be among those not looked at.
  const choice = places.length >= MAX_PLACES ? { kind: "ambiguous" as const, places } : choosePlace(places, text, ctx.elsewhere ? span : undefined);
  if (choice.kind === "none") {
    return now && { verification: { verdict: "drifted", detail: `${why} The cited text no longer occurs in the source.` }, ...now };
  }
  if (choice.kind === "ambiguous") return { verification: { verdict: "drifted", detail: `${why} ${ambiguity(choice.places, citation)}` }, ...now };
  const place = choice.place;
  const relocated = { start_offset: place.at, end_offset: place.at + codePointLength(text) };
  if (place.inCited) {
    const verification: Verification = { verdict: "drifted", detail: `${why}${relocationHint(relocated, place.now)}`, relocated };
    const movedTo = place.now.doc.source !== citation.source ? place.now.doc.source : undefined;
    if (movedTo === undefined) return { verification, ...place.now };
    return { verification: followedMove(citation, movedTo, "", place.now, verification), ...place.now };
  }
  const found = place.found;
  const current = { content: found.content, pageStarts: found.source.pageStarts, sourceLines: found.source.sourceLines, locations: found.source.locations };
  const where = found.doc.document_id === citation.document_id ? ` in ${found.doc.source}` : ` in ${found.doc.source} (document ${found.doc.document_id})`;
  return { verification: { verdict: "drifted", detail: `${why}${relocationHint(found.relocated, current, where)}`, relocated: found.relocated } };
}

/** The detail for a text found at several places (or at one that may be another copy of it), none of them named as where it went. */
function ambiguity(places: readonly FoundPlace[], citation: Citation): string {
  const label = (p: FoundPlace): string => {
    const source = p.inCited ? p.now.doc.source : p.found.doc.source;
    const lines = p.content.lineRange(p.at, p.at + (citation.end_offset - citation.start_offset));
    return `${source} ${span("line", lines.startLine, lines.endLine)}`;
  };
  if (places.length === 1) {
    return `The cited text occurs at ${label(places[0]!)}, but it was repeated in its document when cited and the text around it there is not the cited text's, so that place is not named as where it went.`;
  }
  const [a, b] = places;
  return `The cited text occurs at several places (${label(a!)}, ${label(b!)}${places.length > 2 ? ", …" : ""}) and the text around none of them tells which is the cited one, so none is named as where it went.`;
}

/**
 * One code-point view per source read: hits that share a read (readCache) also
 * share its code-point and line indexes, so a source is scanned once per
 * search, not once per hit.
 */
const CODE_POINTS = new WeakMap<SourceText, CodePointText>();
export function codePointsOf(source: SourceText): CodePointText {
  let content = CODE_POINTS.get(source);
  if (!content) {
    content = new CodePointText(source.text);
    CODE_POINTS.set(source, content);
  }
  return content;
}

/** Run `read` once per key within a shared cache; a failed read is forgotten so errors stay per citation. */
function cached(ctx: VerifyContext, key: string, read: () => Promise<SourceText>): Promise<SourceText> {
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

/** A citation's current source text, per class, after containment (used by verification and document reads). */
export async function obtainContent(citation: Citation, ctx: VerifyContext): Promise<SourceText> {
  if (citation.source_class === "snapshot") {
    const readSnapshot = ctx.readSnapshot;
    if (!readSnapshot) throw unresolvable("snapshot citations need the collection's snapshot store to verify.");
    return cached(ctx, `snapshot\0${citation.document_id}\0${citation.source}`, async () => ({ text: await readSnapshot(citation) }));
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
  return cached(ctx, `text\0${realPath}`, async () => ({
    text: await readTextSource(realPath, citation.source, ctx.maxFileSize),
    pageStarts: [],
  }));
}

async function containedPath(source: string, baseDir: string): Promise<string> {
  try {
    return await resolveContained(source, baseDir);
  } catch (err) {
    if (!(err instanceof GroundkitError)) throw err;
    if (err.code === "PATH_ESCAPES_BASE") {
      throw unresolvable(`the source resolves outside the base directory ${baseDir}; refused before reading.`);
    }
    if (err.code === "SOURCE_NOT_FOUND") throw unresolvable("the source file no longer exists.", { gone: true });
    throw unresolvable(`the source cannot be read: ${err.message}`);
  }
}

type Relocation = NonNullable<Verification["relocated"]>;

/** The re-read source as compare needs it. */
interface Current {
  content: CodePointText;
  pageStarts: readonly number[] | undefined;
  sourceLines: SourceLineMap | undefined;
  locations: LocationMap | undefined;
}

/** The citation against its document as read: verified, or drifted saying what differs (where the text went is placeElsewhere's). */
function compare(citation: Citation, current: Current): Verification {
  const { start_offset: start, end_offset: end } = citation;
  const text = current.content;
  if (end > text.length) {
    return { verdict: "drifted", detail: `the source is now ${text.length} code points long; the cited span ends at ${end}.` };
  }
  if (sha256(text.slice(start, end)) !== citation.text_hash) {
    return { verdict: "drifted", detail: `the text at code points ${start}-${end} differs from what was cited.` };
  }
  const stale = staleLocation(citation, current);
  if (stale) return { verdict: "drifted", detail: `the text is unchanged at code points ${start}-${end}, but ${stale}.` };
  return { verdict: "verified", detail: `the text at code points ${start}-${end} matches the cited hash.` };
}

/**
 * What no longer holds of the citation's lines, pages and source-file lines, for
 * text found at its offsets; undefined when they all hold. Pages (source lines)
 * are checked whenever the source can say where its pages are (where its text
 * came from) and the citation names any.
 */
function staleLocation(citation: Citation, { content, pageStarts, sourceLines, locations }: Current): string | undefined {
  const { start_offset: start, end_offset: end } = citation;
  const stale: string[] = [];
  const lines = content.lineRange(start, end);
  if (lines.startLine !== citation.start_line || lines.endLine !== citation.end_line) {
    stale.push(`now on ${span("line", lines.startLine, lines.endLine)} (cited ${range(citation.start_line, citation.end_line)})`);
  }
  const citedPages = citation.page_start != null && citation.page_end != null ? range(citation.page_start, citation.page_end) : undefined;
  if (citedPages !== undefined && pageStarts !== undefined) {
    const pages = pageRange(pageStarts, start, end);
    if (!pages) stale.push(`the source has no pages now (cited page ${citedPages})`);
    else if (pages.pageStart !== citation.page_start || pages.pageEnd !== citation.page_end) {
      stale.push(`${stale.length ? "on" : "now on"} ${span("page", pages.pageStart, pages.pageEnd)} (cited ${citedPages})`);
    }
  }
  const { source_start_line: citedFrom, source_end_line: citedTo } = citation;
  if (citedFrom != null && citedTo != null && sourceLines !== undefined) {
    const fileLines = sourceLineRange(sourceLines, start, end);
    const cited = range(citedFrom, citedTo);
    if (!fileLines) stale.push(`the source file's lines cannot be told now (cited file line ${cited})`);
    else if (fileLines.startLine !== citedFrom || fileLines.endLine !== citedTo) {
      stale.push(`${stale.length ? "on" : "now on"} file ${span("line", fileLines.startLine, fileLines.endLine)} (cited ${cited})`);
    }
  }
  if (citation.location != null && locations !== undefined) {
    const now = locationLabel(locations, start, end);
    if (now !== citation.location) stale.push(`${stale.length ? "at" : "now at"} ${now ?? "no located part of the document"} (cited ${citation.location})`);
  }
  return stale.length ? stale.join(" and ") : undefined;
}

/** The caller's original text, only when it is what the citation hashed (and not empty). */
function trustedOriginal(citation: Citation, originalText: string | undefined): string | undefined {
  return originalText && sha256(originalText) === citation.text_hash ? originalText : undefined;
}

function relocationHint(moved: Relocation, { content, pageStarts, sourceLines, locations }: Current, where = ""): string {
  const lines = content.lineRange(moved.start_offset, moved.end_offset);
  const pages = pageStarts && pageRange(pageStarts, moved.start_offset, moved.end_offset);
  const onPages = pages ? `, on ${span("page", pages.pageStart, pages.pageEnd)}` : "";
  const fileLines = sourceLines && sourceLineRange(sourceLines, moved.start_offset, moved.end_offset);
  const inFile = fileLines ? `, file ${span("line", fileLines.startLine, fileLines.endLine)}` : "";
  const location = locations && locationLabel(locations, moved.start_offset, moved.end_offset);
  const at = location ? `, at ${location}` : "";
  return ` The cited text now sits${where} at code points ${moved.start_offset}-${moved.end_offset} (lines ${lines.startLine}-${lines.endLine})${onPages}${inFile}${at}.`;
}

/** "line 7" or "lines 7-8". */
function span(unit: string, from: number, to: number): string {
  return from === to ? `${unit} ${from}` : `${unit}s ${from}-${to}`;
}

function range(from: number, to: number): string {
  return from === to ? `${from}` : `${from}-${to}`;
}

/**
 * The verdict rules of `cite/verify.ts`, one row per verdict and detail:
 * verified; drifted because the text differs, moved, is gone, the source got
 * shorter, or the text holds but its lines or pages do not; unresolvable for
 * every reason it can give. Sources are real files under a real base dir; the
 * extracted rows that need chosen page boundaries hand them in through the
 * context's reader, the others run the real extractor registry.
 */
import { createHash } from "node:crypto";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IndexedSource } from "../src/cite/indexed-source.js";
import { readExtractedSource } from "../src/cite/read-extracted-source.js";
import { readSnapshotSource } from "../src/cite/read-snapshot-source.js";
import type { SourceText } from "../src/cite/source-text.js";
import { verifyCitation, type VerifyContext } from "../src/cite/verify.js";
import type { Citation, Verification } from "../src/core/contracts.js";
import { documentIdFor } from "../src/core/ids.js";
import type { Location } from "../src/core/locations.js";
import { getExtractorRegistry } from "../src/extract/registry.js";
import { SnapshotStore } from "../src/store/snapshots.js";
import { tempDir } from "./support/cli.js";

const hash = (s: string) => createHash("sha256").update(s).digest("hex");

/** The indexed document: the cited words sit on line 3, code points 18-33. */
const DOC = "line one\nline two\nthe cited words here\nline four\n";
const CITED = "the cited words";
const START = 18;
const END = 33;

let work: { dir: string; cleanup: () => void };
let base: string;
let pdfIdentity: string;
let row = 0;

beforeAll(async () => {
  work = tempDir("grk-verdicts-");
  base = join(work.dir, "base");
  mkdirSync(base);
  mkdirSync(join(work.dir, "outside"));
  writeFileSync(join(work.dir, "outside", "x.md"), DOC);
  pdfIdentity = (await getExtractorRegistry()).get("pdf")!.identity;
});
afterAll(() => work.cleanup());

interface Row {
  name: string;
  /** Files to write under this row's own folder of the base dir (name → content). */
  files?: Record<string, string | Uint8Array>;
  /** The citation, given the path of this row's `doc` file. */
  citation?: (doc: string) => Partial<Citation>;
  /** Context changes, given the citation. */
  ctx?: (c: Citation) => Partial<VerifyContext>;
  expect: { verdict: Verification["verdict"]; detail: string | RegExp; relocated?: Verification["relocated"] };
}

/** A text citation of `CITED` in `DOC`, at the path `source`. */
function textCitation(source: string, over: Partial<Citation> = {}): Citation {
  return {
    document_id: documentIdFor(source),
    chunk_id: "chunk",
    source,
    source_class: "text",
    extractor: null,
    start_offset: START,
    end_offset: END,
    start_line: 3,
    end_line: 3,
    text_hash: hash(CITED),
    ...over,
  };
}

const indexedAs = (c: Citation): IndexedSource => ({ source: c.source, source_class: c.source_class, extractor: c.extractor });

/** Extracted text with two pages: page 2 starts at code point 10. */
const PAGED = "page one.\nthe cited words on page two";
const pagedReader = (pageStarts: readonly number[]) => async (): Promise<SourceText> => ({ text: PAGED, pageStarts });
/** The same text located by an office extractor: the second run (from code point 10) at `locations[1]`. */
const locatedReader = (locations: Location[]) => async (): Promise<SourceText> => ({ text: PAGED, pageStarts: [], locations: { starts: [0, 10], locations } });
const pagedCitation = (over: Partial<Citation> = {}) => (doc: string): Partial<Citation> => ({
  source: doc,
  source_class: "extracted",
  extractor: "test-extractor/1",
  start_offset: 10,
  end_offset: 25,
  start_line: 2,
  end_line: 2,
  page_start: 2,
  page_end: 2,
  ...over,
});

const ROWS: Row[] = [
  // ---- verified
  { name: "verified: the text, lines and (absent) pages all hold", files: { doc: DOC }, expect: { verdict: "verified", detail: "the text at code points 18-33 matches the cited hash." } },
  {
    name: "verified: offsets are code points (astral characters before the span)",
    files: { doc: "😀𠀀\nthe cited words\n" },
    citation: () => ({ start_offset: 3, end_offset: 18, start_line: 2, end_line: 2 }),
    expect: { verdict: "verified", detail: "the text at code points 3-18 matches the cited hash." },
  },
  {
    name: "verified: extracted, pages hold",
    files: { doc: "bytes" },
    citation: pagedCitation(),
    ctx: () => ({ readExtracted: pagedReader([0, 10]) }),
    expect: { verdict: "verified", detail: "the text at code points 10-25 matches the cited hash." },
  },

  // ---- drifted: the text
  {
    name: "drifted: differs, original text unknown (no location)",
    files: { doc: DOC.replace("cited", "CITED") },
    expect: { verdict: "drifted", detail: "the text at code points 18-33 differs from what was cited.", relocated: undefined },
  },
  {
    name: "drifted-moved: says where the original text now sits",
    files: { doc: "a new first line\n" + DOC },
    ctx: () => ({ originalText: CITED }),
    expect: {
      verdict: "drifted",
      detail: "the text at code points 18-33 differs from what was cited. The cited text now sits at code points 35-50 (lines 4-4).",
      relocated: { start_offset: 35, end_offset: 50 },
    },
  },
  {
    // ADR 0037: the nearest occurrence used to win here; nothing tells which copy is the cited one, so none does.
    name: "drifted-repeated: a text at several places, nothing telling them apart, is relocated to none",
    files: { doc: "the cited words\n" + "x".repeat(10) + "the cited words\n" },
    ctx: () => ({ originalText: CITED }),
    expect: {
      verdict: "drifted",
      detail: /occurs at several places \(.*doc line 1, .*doc line 2\) and the text around none of them tells which is the cited one, so none is named/,
      relocated: undefined,
    },
  },
  {
    name: "drifted-gone: the original text occurs nowhere",
    files: { doc: DOC.replace("cited", "other") },
    ctx: () => ({ originalText: CITED }),
    expect: {
      verdict: "drifted",
      detail: "the text at code points 18-33 differs from what was cited. The cited text no longer occurs in the source.",
      relocated: undefined,
    },
  },
  {
    name: "drifted: an original text whose hash does not match is ignored",
    files: { doc: "a new first line\n" + DOC },
    ctx: () => ({ originalText: "the cited word" }),
    expect: { verdict: "drifted", detail: "the text at code points 18-33 differs from what was cited.", relocated: undefined },
  },
  {
    name: "drifted: the source is now shorter than the span",
    files: { doc: "line one\n" },
    expect: { verdict: "drifted", detail: "the source is now 9 code points long; the cited span ends at 33." },
  },
  {
    name: "drifted-moved: a crafted end offset does not stretch the relocation past the source",
    files: { doc: "a new first line\n" + DOC },
    citation: () => ({ end_offset: 1e15 }),
    ctx: () => ({ originalText: CITED }),
    expect: {
      verdict: "drifted",
      detail: "the source is now 66 code points long; the cited span ends at 1000000000000000. The cited text now sits at code points 35-50 (lines 4-4).",
      relocated: { start_offset: 35, end_offset: 50 },
    },
  },
  {
    name: "verified: an office document's location holds",
    files: { doc: "bytes" },
    citation: pagedCitation({ page_start: null, page_end: null, location: "slide 2" }),
    ctx: () => ({ readExtracted: locatedReader([{ slide: 1 }, { slide: 2 }]) }),
    expect: { verdict: "verified", detail: "the text at code points 10-25 matches the cited hash." },
  },
  {
    name: "drifted: the same text at the same offsets is now on another slide",
    files: { doc: "bytes" },
    citation: pagedCitation({ page_start: null, page_end: null, location: "slide 2" }),
    ctx: () => ({ readExtracted: locatedReader([{ slide: 1 }, { slide: 3 }]) }),
    expect: { verdict: "drifted", detail: "the text is unchanged at code points 10-25, but now at slide 3 (cited slide 2)." },
  },
  {
    name: "drifted-moved: a relocation in an office document names where it sits",
    files: { doc: "bytes" },
    citation: pagedCitation({ start_offset: 0, end_offset: 15, page_start: null, page_end: null, location: "Budget!A1" }),
    ctx: () => ({
      readExtracted: locatedReader([{ sheet: "Budget", row: 1, col: 1 }, { sheet: "Budget", row: 4, col: 2 }]),
      originalText: "the cited words",
    }),
    expect: {
      verdict: "drifted",
      detail: /now sits at code points 10-25 \(lines 2-2\), at Budget!B4\.$/,
      relocated: { start_offset: 10, end_offset: 25 },
    },
  },
  {
    name: "drifted-moved: a relocation in paged text names its pages",
    files: { doc: "bytes" },
    citation: pagedCitation({ start_offset: 0, end_offset: 15 }),
    ctx: () => ({ readExtracted: pagedReader([0, 10]), originalText: "the cited words" }),
    expect: {
      verdict: "drifted",
      detail: /now sits at code points 10-25 \(lines 2-2\), on page 2\.$/,
      relocated: { start_offset: 10, end_offset: 25 },
    },
  },

  // ---- drifted: the text holds, its lines or pages do not
  {
    name: "drifted-lines: a same-length edit turned spaces into newlines before the span",
    files: { doc: DOC.replace("line one", "line\none").replace("line two", "line\ntwo") },
    expect: { verdict: "drifted", detail: "the text is unchanged at code points 18-33, but now on line 5 (cited 3).", relocated: undefined },
  },
  {
    name: "drifted-lines: a multi-line span, both ends reported",
    files: { doc: "a\nb\nc\nd\nthe cited\nwords\n" },
    citation: () => ({ start_offset: 8, end_offset: 23, start_line: 4, end_line: 5, text_hash: hash("the cited\nwords") }),
    expect: { verdict: "drifted", detail: "the text is unchanged at code points 8-23, but now on lines 5-6 (cited 4-5)." },
  },
  {
    name: "drifted-lines: newlines removed before the span",
    files: { doc: "a b c d the cited\nwords\n" },
    citation: () => ({ start_offset: 8, end_offset: 23, start_line: 5, end_line: 6, text_hash: hash("the cited\nwords") }),
    expect: { verdict: "drifted", detail: "the text is unchanged at code points 8-23, but now on lines 1-2 (cited 5-6)." },
  },
  {
    name: "drifted-pages: the text moved to another page at the same offsets",
    files: { doc: "bytes" },
    citation: pagedCitation(),
    ctx: () => ({ readExtracted: pagedReader([0, 5, 9]) }),
    expect: { verdict: "drifted", detail: "the text is unchanged at code points 10-25, but now on page 3 (cited 2)." },
  },
  {
    name: "drifted-pages: now spans two pages",
    files: { doc: "bytes" },
    citation: pagedCitation(),
    ctx: () => ({ readExtracted: pagedReader([0, 10, 20]) }),
    expect: { verdict: "drifted", detail: "the text is unchanged at code points 10-25, but now on pages 2-3 (cited 2)." },
  },
  {
    name: "drifted-pages: the source has no pages now",
    files: { doc: "bytes" },
    citation: pagedCitation(),
    ctx: () => ({ readExtracted: pagedReader([]) }),
    expect: { verdict: "drifted", detail: "the text is unchanged at code points 10-25, but the source has no pages now (cited page 2)." },
  },
  {
    name: "drifted-lines and pages together",
    files: { doc: "bytes" },
    citation: pagedCitation({ start_line: 1, end_line: 1, page_start: 1, page_end: 1 }),
    ctx: () => ({ readExtracted: pagedReader([0, 10]) }),
    expect: { verdict: "drifted", detail: "the text is unchanged at code points 10-25, but now on line 2 (cited 1) and on page 2 (cited 1)." },
  },
  {
    name: "verified: pages a snapshot cannot know are not held against it",
    files: {},
    citation: () => snapshotCitation({ page_start: 7, page_end: 7, start_offset: 0, end_offset: 15, start_line: 1, end_line: 1 }),
    ctx: (c) => ({ readSnapshot: async () => "the cited words", indexed: indexedAs(c) }),
    expect: { verdict: "verified", detail: "the text at code points 0-15 matches the cited hash." },
  },

  // ---- unresolvable: the collection does not vouch for the citation (nothing is read)
  {
    name: "unresolvable: the document id is not in the collection",
    files: { doc: DOC },
    ctx: () => ({ indexed: undefined }),
    expect: { verdict: "unresolvable", detail: /^document '[0-9a-f]{32}' is not in collection 'verdicts'; only sources the collection indexed are verified\.$/ },
  },
  {
    name: "unresolvable: the indexed document has another source (never one of its own)",
    files: { doc: DOC },
    ctx: (c) => ({ indexed: { ...indexedAs(c), source: join(base, "other.md") } }),
    expect: { verdict: "unresolvable", detail: /^the citation's source does not match the indexed document '[0-9a-f]{32}'; only sources/ },
  },
  {
    // The document moved (issue 28): it is checked at its indexed source, never at the cited one.
    name: "unresolvable: the indexed document moved to a source that is gone",
    files: { doc: DOC },
    ctx: (c) => ({ indexed: { ...indexedAs(c), source: join(base, "other.md"), metadata: { moved_from: [c.source] } } }),
    expect: { verdict: "unresolvable", detail: /^the document moved from \S+doc to \S+other\.md; the source file no longer exists\.$/ },
  },
  {
    name: "drifted: the indexed document moved, the cited text is at its new source (relocated names it)",
    files: { doc: "bytes", moved: DOC },
    ctx: (c) => ({ indexed: { ...indexedAs(c), source: join(dirname(c.source), "moved"), metadata: { moved_from: [c.source] } }, originalText: CITED }),
    expect: { verdict: "drifted", detail: /^the document moved from \S+doc to \S+moved; the cited text is there at code points 18-33 \(line 3\)\.$/ },
  },
  {
    name: "unresolvable: the indexed document has another source class",
    files: { doc: DOC },
    ctx: (c) => ({ indexed: { ...indexedAs(c), source_class: "extracted", extractor: pdfIdentityRef() } }),
    expect: { verdict: "unresolvable", detail: /^the citation says source class 'text', but document '[0-9a-f]{32}' was indexed as 'extracted'\.$/ },
  },
  {
    name: "unresolvable: the indexed document was extracted with another extractor (both named)",
    files: { doc: "bytes" },
    citation: (doc) => ({ source: doc, source_class: "extracted", extractor: "pdfjs-dist/0.0.1" }),
    ctx: (c) => ({ indexed: { ...indexedAs(c), extractor: pdfIdentityRef() } }),
    expect: { verdict: "unresolvable", detail: /^the citation names extractor pdfjs-dist\/0\.0\.1, but document '[0-9a-f]{32}' was extracted with pdfjs-dist\/[^0]/ },
  },

  // ---- unresolvable: the source cannot be checked
  {
    name: "unresolvable: a URL source cited as text",
    citation: () => ({ source: "https://example.com/a" }),
    expect: { verdict: "unresolvable", detail: "a URL source must be a snapshot citation; this one says 'text'." },
  },
  {
    name: "unresolvable: a relative path",
    citation: () => ({ source: "docs/a.md" }),
    expect: { verdict: "unresolvable", detail: "the citation's source is not an absolute path." },
  },
  {
    name: "unresolvable: no base directory",
    files: { doc: DOC },
    ctx: () => ({ baseDir: undefined }),
    expect: { verdict: "unresolvable", detail: "no base directory is recorded for this source; pass --base-dir to check containment." },
  },
  {
    name: "unresolvable: the path escapes the base dir",
    citation: () => ({ source: join(work.dir, "outside", "x.md") }),
    expect: { verdict: "unresolvable", detail: /^the source resolves outside the base directory .*; refused before reading\.$/ },
  },
  {
    name: "unresolvable: a symlink that escapes the base dir",
    files: {},
    citation: (doc) => {
      symlinkSync(join(work.dir, "outside", "x.md"), doc);
      return {};
    },
    expect: { verdict: "unresolvable", detail: /^the source resolves outside the base directory/ },
  },
  {
    name: "unresolvable: containment is checked before the extractor is looked up",
    citation: () => ({ source: join(work.dir, "outside", "x.pdf"), source_class: "extracted", extractor: "no-such-extractor/9" }),
    expect: { verdict: "unresolvable", detail: /^the source resolves outside the base directory/ },
  },
  {
    name: "unresolvable: the file no longer exists",
    files: {},
    expect: { verdict: "unresolvable", detail: "the source file no longer exists." },
  },
  {
    name: "unresolvable: the source is not a regular file",
    files: {},
    citation: (doc) => {
      mkdirSync(doc);
      return {};
    },
    expect: { verdict: "unresolvable", detail: /^the source cannot be read/ },
  },
  {
    name: "unresolvable: not UTF-8",
    files: { doc: new Uint8Array([0x61, 0xff, 0x62]) },
    expect: { verdict: "unresolvable", detail: /^the source cannot be read as text: .*UTF-8/ },
  },
  {
    name: "unresolvable: binary",
    files: { doc: new Uint8Array([0x61, 0x00, 0x62]) },
    expect: { verdict: "unresolvable", detail: /^the source cannot be read as text: .*binary/ },
  },
  {
    name: "unresolvable: extracted, but no extractor registry in the context",
    files: { doc: "bytes" },
    citation: (doc) => ({ source: doc, source_class: "extracted", extractor: "x/1" }),
    ctx: () => ({ readExtracted: undefined }),
    expect: { verdict: "unresolvable", detail: "extracted citations need the extractor registry to verify." },
  },
  {
    name: "unresolvable: the recorded extractor is not active (both named)",
    files: { doc: "bytes" },
    citation: (doc) => ({ source: doc, source_class: "extracted", extractor: "pdfjs-dist/0.0.1" }),
    expect: { verdict: "unresolvable", detail: /^the extractor recorded at ingest \(pdfjs-dist\/0\.0\.1\) is not active in this build \(active: .*pdfjs-dist\// },
  },
  {
    name: "unresolvable: re-extraction fails",
    files: { doc: "this is not a PDF at all" },
    citation: (doc) => ({ source: doc, source_class: "extracted", extractor: pdfIdentityRef() }),
    expect: { verdict: "unresolvable", detail: /^re-extraction with pdfjs-dist\/.* failed: / },
  },
  {
    name: "unresolvable: snapshot, but no snapshot store in the context",
    citation: () => snapshotCitation(),
    ctx: () => ({ readSnapshot: undefined }),
    expect: { verdict: "unresolvable", detail: "snapshot citations need the collection's snapshot store to verify." },
  },
  {
    name: "unresolvable: no snapshot is stored",
    citation: () => snapshotCitation(),
    expect: { verdict: "unresolvable", detail: /^no snapshot is stored for this document/ },
  },
  {
    name: "unresolvable: the snapshot document id does not belong to its URL",
    citation: () => ({ ...snapshotCitation(), document_id: documentIdFor("https://example.com/other") }),
    expect: { verdict: "unresolvable", detail: "the citation's document id does not belong to its source URL." },
  },
];

function pdfIdentityRef(): string {
  return pdfIdentity;
}

function snapshotCitation(over: Partial<Citation> = {}): Partial<Citation> {
  const source = "https://example.com/page";
  return { source, document_id: documentIdFor(source), source_class: "snapshot", extractor: null, ...over };
}

/** Build a row's world and context: its own folder, its files, a citation the collection vouches for unless the row says otherwise. */
function setUp(r: Row): { citation: Citation; ctx: VerifyContext } {
  const dir = join(base, `row${++row}`);
  mkdirSync(dir);
  for (const [name, content] of Object.entries(r.files ?? {})) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  const doc = join(dir, "doc");
  const citation = textCitation(doc, r.citation?.(doc));
  const snapshots = new SnapshotStore(join(work.dir, "snapshots"));
  const ctx: VerifyContext = {
    collection: "verdicts",
    indexed: indexedAs(citation),
    baseDir: base,
    maxFileSize: 1 << 20,
    readExtracted: (c, realPath) => readExtractedSource(c, realPath, 1 << 20),
    readSnapshot: (c) => readSnapshotSource(c, snapshots),
    ...r.ctx?.(citation),
  };
  return { citation, ctx };
}

describe("verdict rules", () => {
  it.each(ROWS.map((r) => [r.name, r] as const))("%s", async (_name, r) => {
    const { citation, ctx } = setUp(r);
    const v = await verifyCitation(citation, ctx);
    expect(v.verdict).toBe(r.expect.verdict);
    if (typeof r.expect.detail === "string") expect(v.detail).toBe(r.expect.detail);
    else expect(v.detail).toMatch(r.expect.detail);
    if ("relocated" in r.expect) expect(v.relocated).toEqual(r.expect.relocated);
    if (v.relocated) expect(v.relocated.end_offset - v.relocated.start_offset).toBeLessThanOrEqual(ctx.originalText?.length ?? 0);
  });
});

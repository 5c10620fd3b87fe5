/**
 * Wire contracts: zod schemas and the types inferred from them. Wire names are
 * snake_case, the same on every surface (CLI --json, REST, MCP), so a client in
 * any language reads one shape.
 */
import { z } from "zod";

export const SOURCE_CLASSES = ["text", "extracted", "snapshot"] as const;
export const SourceClassSchema = z.enum(SOURCE_CLASSES);
export type SourceClass = z.infer<typeof SourceClassSchema>;

export const VERDICTS = ["verified", "drifted", "unresolvable"] as const;
export type Verdict = (typeof VERDICTS)[number];

/**
 * An integer from `min` up. Its JSON Schema leaves out the 2^53-1 maximum zod
 * writes for every integer (zod still enforces it): repeated over a citation's
 * eight integers it was a tenth of the MCP tool list agents read (ADR 0029).
 */
function intFrom(min: number) {
  return z.number().int().min(min).meta({ maximum: undefined });
}

/**
 * A pointer at exact characters of a source. Offsets are code points; lines are
 * 1-based inclusive lines of the document's content (for `extracted` sources, its
 * extracted text). `source_start_line`/`source_end_line`, when present, are lines
 * of the source file itself (HTML), absent or null when unknown. `location`, when
 * present, says where the span sits in an office document or e-book as its reader
 * names it: `slide 3`, `Budget!A1:C7`, `chapter 2 (The Road)`, `Install > Linux`.
 */
export const CitationSchema = z
  .object({
    document_id: z.string().min(1),
    chunk_id: z.string().min(1),
    source: z.string().min(1),
    source_class: SourceClassSchema,
    extractor: z.string().min(1).nullable(),
    start_offset: intFrom(0),
    end_offset: intFrom(0),
    start_line: intFrom(1),
    end_line: intFrom(1),
    page_start: intFrom(1).nullable().optional(),
    page_end: intFrom(1).nullable().optional(),
    source_start_line: intFrom(1).nullable().optional(),
    source_end_line: intFrom(1).nullable().optional(),
    location: z.string().min(1).max(4096).nullable().optional(),
    text_hash: z.string().regex(/^[0-9a-f]{64}$/, "a hex SHA-256"),
  })
  .refine((c) => c.end_offset >= c.start_offset, { message: "end_offset must be >= start_offset" })
  .refine((c) => c.end_line >= c.start_line, { message: "end_line must be >= start_line" })
  .refine((c) => (c.page_start == null) === (c.page_end == null), { message: "page_start and page_end come together" })
  .refine((c) => c.page_start == null || c.page_end == null || c.page_end >= c.page_start, {
    message: "page_end must be >= page_start",
  })
  .refine((c) => (c.source_start_line == null) === (c.source_end_line == null), {
    message: "source_start_line and source_end_line come together",
  })
  .refine((c) => c.source_start_line == null || c.source_end_line == null || c.source_end_line >= c.source_start_line, {
    message: "source_end_line must be >= source_start_line",
  })
  .refine((c) => (c.source_class === "extracted") === (c.extractor !== null), {
    message: "an extracted citation must name its extractor; other classes must not",
  });
export type Citation = z.infer<typeof CitationSchema>;

/** The outcome of re-checking a citation against its source. */
export interface Verification {
  verdict: Verdict;
  detail: string;
  /**
   * Where the cited text now sits, when it moved (still `drifted`). In another
   * document, or the cited one at another source (a moved file), it also names
   * that document, its source and the lines there.
   */
  relocated?:
    | {
        start_offset: number;
        end_offset: number;
        document_id?: string | undefined;
        source?: string | undefined;
        start_line?: number | undefined;
        end_line?: number | undefined;
      }
    | undefined;
  /** When not verified: the cited text as the collection last held it (docs/decisions/0031-document-history.md). */
  as_cited?: AsCited | undefined;
  /** With `as_cited`: what the source says now at the cited code points (or where the text moved). */
  current_text?: string | undefined;
}

/** The cited text as it was, and the version of its document that last held it. */
export interface AsCited {
  text: string;
  /** 0: the version indexed now (its source changed since); n: the n-th previous version (`grk history`). */
  version: number;
  /** When that version was ingested. */
  ingested_at: string;
  /** That version's source (a moved document's earlier path). */
  source: string;
}

/** A chunk as produced by the chunker: a span of its document's content. */
export interface ChunkSpan {
  /** Code-point offsets into the document content. */
  start: number;
  end: number;
  startLine: number;
  endLine: number;
  text: string;
  /** Markdown heading path, outermost first (e.g. ["Install", "Linux"]). */
  headingPath: string[];
  /** PDF page range (1-based, inclusive) when the document has pages. */
  pageStart?: number | undefined;
  pageEnd?: number | undefined;
}

/**
 * The part of a hit's chunk that shows why it matched. Offsets are code points
 * of the source document, like the citation's; the passage lies inside the
 * cited span, and each term occurrence inside the passage.
 */
export interface MatchedPassage {
  text: string;
  start_offset: number;
  end_offset: number;
  /** Each occurrence of a query term (its analyzed form: stemmed, folded) in the passage. */
  terms: Array<{ term: string; start_offset: number; end_offset: number }>;
  /**
   * `query_terms`: the window of the chunk holding the most distinct query terms;
   * `chunk_start`: the chunk holds no query term (a dense-only hit, or a match in its heading), so its start.
   */
  basis: "query_terms" | "chunk_start";
}

/** One search hit. */
export interface SearchHit {
  rank: number;
  score: number;
  chunk_id: string;
  document_id: string;
  text: string;
  heading_path: string[];
  /** Code and configuration files: the file's language (`typescript`, `json`, …). */
  lang?: string | undefined;
  /** Code chunks: what the chunk holds (`method Collection.search`): its first whole definition, else the one it is part of. */
  symbol?: string | undefined;
  citation: Citation;
  /** The best-matching passage of the chunk with the query's terms. */
  passage: MatchedPassage;
  verification?: Verification | undefined;
  /** Source text around the cited span (code points each side), when verified and asked for. */
  context?: { before: string; after: string } | null | undefined;
}

/**
 * `get_document` / `GET /v1/collections/{c}/document-text`: a line range of a
 * document's indexed text with a citation for exactly that range, bounded in size.
 */
import { z } from "zod";
import { DOCUMENT_CHARS } from "../../cite/read-document.js";
import { defineTool } from "../tool-definition.js";
import { CitationOut, CollectionArg, VerificationOut } from "./schemas.js";

export const getDocumentTool = defineTool({
  name: "get_document",
  title: "Read lines of a document",
  description:
    "Read a line range of one indexed document (by document_id, a unique prefix of one, or its source as a search " +
    "hit's citation shows it). Returns the text with a citation for exactly those lines, read back from the source " +
    `and checked against what was indexed. At most max_chars code points (default ${DOCUMENT_CHARS.default}); a longer ` +
    "range stops at the last whole line and next_line says where to continue. Lines are the source file's (lines_of: " +
    "\"file\") for text files and HTML (the text that came from those lines of the HTML, as source_start_line/" +
    "source_end_line of a hit's citation name them), lines of the extracted text for PDFs and snapshots.",
  kind: "read",
  input: z.strictObject({
    document: z.string().min(1).max(4096).describe("A document_id (or unique prefix of at least 6 characters), or the document's source."),
    collection: CollectionArg.optional(),
    start_line: z.number().int().min(1).optional().describe("First line, 1-based (default 1)."),
    end_line: z.number().int().min(1).optional().describe("Last line, inclusive (default: the end of the document)."),
    max_chars: z
      .number()
      .int()
      .min(1)
      .max(DOCUMENT_CHARS.max)
      .optional()
      .describe(`Most code points of text to return (1-${DOCUMENT_CHARS.max}, default ${DOCUMENT_CHARS.default}).`),
  }),
  output: z.looseObject({
    collection: z.string(),
    document_id: z.string(),
    source: z.string(),
    source_class: z.string(),
    lines_of: z.enum(["file", "extracted text"]).describe("What start_line, end_line and total_lines count."),
    start_line: z.number().int(),
    end_line: z.number().int(),
    total_lines: z.number().int(),
    text: z.string(),
    truncated: z.boolean(),
    next_line: z.number().int().nullable().describe("The start_line of the next call to continue the range; null at its end."),
    citation: CitationOut,
    verification: VerificationOut,
  }),
  rest: { method: "GET", path: "/v1/collections/:collection/document-text" },
  hints: { destructive: false, idempotent: true, openWorld: false },
  async handler(input, ctx) {
    const collection = input.collection ?? ctx.defaultCollection;
    const view = await ctx.collections.use(collection, (col) =>
      col.getDocument(input.document, {
        startLine: input.start_line,
        endLine: input.end_line,
        maxChars: input.max_chars,
        baseDir: ctx.baseDir,
      }),
    );
    return { collection, ...view };
  },
});

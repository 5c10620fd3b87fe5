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
    `Read lines of a document with a citation for exactly them (at most max_chars, default ${DOCUMENT_CHARS.default}); ` +
    "next_line says where to go on. PDFs count the extracted text's lines.",
  kind: "read",
  input: z.strictObject({
    document: z.string().min(1).max(4096).describe("document_id, a 6+ character prefix, or source."),
    collection: CollectionArg.optional(),
    start_line: z.number().int().min(1).optional().describe("1-based (default 1)."),
    end_line: z.number().int().min(1).optional().describe("Inclusive (default: the end)."),
    max_chars: z
      .number()
      .int()
      .min(1)
      .max(DOCUMENT_CHARS.max)
      .optional()
      ,
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

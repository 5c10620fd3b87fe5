/**
 * `POST /v1/answer` (REST only): an answer written by the server's configured
 * chat model with groundkit's grounding report. With `Accept: text/event-stream`
 * the route streams `retrieval` and `token` events, then `result` (the same
 * JSON as the plain response) or `error`.
 */
import { z } from "zod";
import { GROUNDING_VERDICTS } from "../../answer/grounding.js";
import { MAX_QUERY_CHARS } from "../../retrieve/query.js";
import { MAX_FILTERS } from "../../retrieve/filters.js";
import { SEARCH_MODES } from "../../retrieve/search-pipeline.js";
import { defineTool } from "../tool-definition.js";
import { CollectionArg } from "./schemas.js";

export const answerTool = defineTool({
  name: "answer",
  title: "Answer a question with checked citations",
  description:
    "Answer a question from a collection with the server's chat model. groundkit, not the model, checks every " +
    "citation, quote and cited passage against the sources: verdict grounded, partially grounded, ungrounded or abstained.",
  kind: "read",
  surfaces: "rest",
  streams: true,
  longRunning: true,
  input: z.strictObject({
    query: z.string().min(1).max(MAX_QUERY_CHARS).describe("The question."),
    collection: CollectionArg.optional(),
    top_k: z.number().int().min(1).max(20).optional().describe("Passages, default 6."),
    mode: z.enum(SEARCH_MODES).optional().describe("Default bm25."),
    filters: z.array(z.string().min(1).max(512)).max(MAX_FILTERS).optional().describe("As search's."),
    rerank: z.boolean().optional(),
    rewrite: z.boolean().optional().describe("Let the model rewrite the question as a search query."),
    judge: z.boolean().optional().describe("An advisory faithfulness rating by a second call."),
  }),
  output: z.looseObject({
    question: z.string(),
    retrieval_query: z.string(),
    collection: z.string(),
    answer: z.string(),
    model_called: z.boolean(),
    grounding: z.looseObject({
      verdict: z.enum(GROUNDING_VERDICTS),
      reason: z.string(),
      counts: z.looseObject({}),
      sentences: z.array(z.looseObject({})),
      quotes: z.array(z.looseObject({})),
      passages: z.array(z.looseObject({})),
    }),
    redaction: z.looseObject({ enabled: z.boolean(), total: z.number().int() }),
  }),
  rest: { method: "POST", path: "/v1/answer" },
  hints: { destructive: false, idempotent: false, openWorld: true },
  async handler(input, ctx, emit) {
    const collection = input.collection ?? ctx.defaultCollection;
    const report = await ctx.collections.use(collection, (col) =>
      col.answer(input.query, {
        topK: input.top_k,
        mode: input.mode,
        filters: input.filters,
        rerank: input.rerank,
        rewrite: input.rewrite,
        judge: input.judge,
        baseDir: ctx.baseDir,
        onEvent: emit ? (event) => emit(event.type, event) : undefined,
      }),
    );
    return report as unknown as Record<string, unknown> & typeof report;
  },
});

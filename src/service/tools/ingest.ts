/**
 * `ingest` / `POST /v1/collections/{c}/ingest` (mutating): index paths under the
 * server's allowed roots, or http(s) URLs. Offered only with a shared secret.
 */
import { resolve } from "node:path";
import { z } from "zod";
import { MAX_CHUNK_SIZE, MIN_CHUNK_SIZE } from "../../ingest/chunker.js";
import { mergeSummaries, type IngestOptions, type IngestSummary } from "../../ingest/ingest.js";
import { parseHistorySpec, type HistoryRetention } from "../../collection/history.js";
import { isWithin, resolveContained } from "../../core/containment.js";
import { GroundkitError } from "../../core/errors.js";
// Any scheme-shaped input goes the URL way, where only http(s) passes (file:// is URL_REFUSED, never a path).
import { hasUrlScheme } from "../../net/url-shape.js";
import { defineTool } from "../tool-definition.js";
import { CollectionArg } from "./schemas.js";

/** Longest `history` argument read (the longest meaningful one is far shorter). */
const MAX_HISTORY_SPEC = 120;

export const ingestTool = defineTool({
  name: "ingest",
  title: "Ingest sources",
  description:
    "Index paths under the allowed roots, or http(s) URLs; unchanged files are skipped, deleted ones pruned.",
  kind: "mutating",
  input: z.strictObject({
    inputs: z.array(z.string().min(1).max(4096)).min(1).max(64).describe("Paths under an allowed root, or http(s) URLs."),
    collection: CollectionArg.optional(),
    include: z.array(z.string().min(1).max(512)).max(32).optional().describe("Only files matching these globs."),
    exclude: z.array(z.string().min(1).max(512)).max(32).optional().describe("Skip files matching these globs."),
    chunk_size: z
      .number()
      .int()
      .min(MIN_CHUNK_SIZE)
      .max(MAX_CHUNK_SIZE)
      .optional()
      .describe("Re-chunk with this size."),
    chunk_overlap: z
      .number()
      .int()
      .min(0)
      .max(MAX_CHUNK_SIZE)
      .optional()
      .describe("Re-chunk with this overlap (< half the size)."),
    // Checked here, not by JSON Schema keywords: every byte of tools/list is paid by every MCP connection (ADR 0029).
    history: z
      .string()
      .superRefine((spec, issues) => {
        try {
          if (spec.length > MAX_HISTORY_SPEC) throw new Error(`A history retention is at most ${MAX_HISTORY_SPEC} characters.`);
          parseHistorySpec(spec);
        } catch (err) {
          issues.addIssue({ code: "custom", message: (err as Error).message });
        }
      })
      .optional()
      .describe("off, on, or versions=N,days=N,bytes=SIZE"),
  }),
  output: z.looseObject({
    collection: z.string(),
    files_seen: z.number().int(),
    indexed: z.number().int(),
    unchanged: z.number().int(),
    removed: z.number().int(),
    moved: z.number().int().describe("Documents whose file moved to another path: they keep their ids, chunks and citations."),
    chunks_written: z.number().int(),
    vectors_written: z.number().int(),
    skipped: z.array(z.looseObject({ source: z.string(), reason: z.string() })),
    unsupported: z.array(z.string()),
    failed: z.array(z.looseObject({ source: z.string(), code: z.string(), message: z.string() })),
    duration_ms: z.number(),
    chunking: z
      .looseObject({ chunk_size: z.number().int(), chunk_overlap: z.number().int(), rechunked: z.boolean() })
      .nullable()
      .describe("The chunking used; rechunked is true when this call changed the collection's recorded chunking."),
  }),
  rest: { method: "POST", path: "/v1/collections/:collection/ingest" },
  hints: { destructive: true, idempotent: true, openWorld: true },
  longRunning: true,
  async handler(input, ctx) {
    const collection = input.collection ?? ctx.defaultCollection;
    // Every input is checked before anything is written, so a refused call changes nothing.
    const groups = new Map<string | null, string[]>();
    for (const raw of input.inputs) {
      const [root, path] = hasUrlScheme(raw) ? [null, raw] : await placeUnderRoot(raw, ctx.allowedRoots);
      groups.set(root, [...(groups.get(root) ?? []), path]);
    }
    const summaries: IngestSummary[] = [];
    const existed = (await ctx.collections.names()).includes(collection);
    try {
      await ctx.collections.use(
        collection,
        async (col) => {
          for (const [root, paths] of groups) {
            const opts: Partial<IngestOptions> & { history?: Partial<HistoryRetention> | undefined } = {
              baseDir: root ?? undefined,
              include: input.include,
              exclude: input.exclude,
              allowPrivateNetwork: ctx.allowPrivateNetwork,
              chunkSize: input.chunk_size,
              chunkOverlap: input.chunk_overlap,
              history: input.history === undefined ? undefined : parseHistorySpec(input.history),
            };
            // The writer lock serializes this with every other writer of the collection, here or in another process.
            summaries.push(await col.ingest(paths, { ...opts, lockTimeoutMs: ctx.lockTimeoutMs }));
          }
        },
        { create: true },
      );
    } finally {
      // A collection this call created that reached nothing (every input failed) is removed again.
      if (!existed) await ctx.collections.removeIfUnused(collection);
    }
    return { collection, ...mergeSummaries(summaries) };
  },
});

/** The allowed root a path lies under (lexically, then through symlinks) and its absolute form. */
async function placeUnderRoot(raw: string, roots: string[]): Promise<[string, string]> {
  const shown = JSON.stringify(raw.length > 200 ? raw.slice(0, 200) + "…" : raw);
  if (roots.length === 0) {
    throw new GroundkitError(
      "PATH_ESCAPES_BASE",
      `This server ingests URLs only; ${shown} is a path (start it with --allowed-root DIR to allow paths).`,
    );
  }
  if (raw.includes("\0")) throw new GroundkitError("INVALID_ARGUMENT", "A path may not contain a NUL character.");
  for (const root of roots) {
    const abs = resolve(roots[0]!, raw);
    if (isWithin(abs, root)) {
      // Symlinks are followed here and again, per file, by discovery.
      await resolveContained(abs, root);
      return [root, abs];
    }
  }
  throw new GroundkitError("PATH_ESCAPES_BASE", `${shown} is not under an allowed root of this server.`);
}

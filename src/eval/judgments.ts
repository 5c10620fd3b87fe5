/**
 * Quote-anchored relevance judgments.
 *
 * A judgment names a corpus-relative document and a verbatim quote instead of
 * chunk ids or offsets: chunk ids and offsets move whenever chunking changes,
 * a quote does not. At load time each quote is resolved to a code-point span
 * of the document's content (the same normalized content the index stores),
 * and every retrieved chunk overlapping that span counts as relevant.
 *
 * The format is the original Python groundkit's (`{query_id, query, category,
 * gold: [{doc, quote}], notes?}`, one object per line); unknown extra fields are
 * ignored so its files load unchanged.
 */
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { sourceFileExtensions } from "../core/code-languages.js";
import { GroundkitError } from "../core/errors.js";
import { CodePointText, decodeUtf8Strict, normalizeNewlines, Utf8DecodeError } from "../core/text.js";
import { formatIssues } from "../core/validation.js";

/** The four judgment categories. */
export const JUDGMENT_CATEGORIES = ["normal", "ambiguous", "no_answer", "adversarial"] as const;
/** One of {@link JUDGMENT_CATEGORIES}. */
export type JudgmentCategory = (typeof JUDGMENT_CATEGORIES)[number];

/** Extensions the default content reader accepts (read as strict UTF-8 text): prose, and code and configuration files. */
export const TEXT_DOC_EXTENSIONS: readonly string[] = [".md", ".markdown", ".txt", ...sourceFileExtensions()];
/** Extensions whose content comes from an extractor; loading them needs a `contentOf`. */
export const EXTRACTED_DOC_EXTENSIONS: readonly string[] = [".pdf", ".html", ".htm"];

/** Rejects absolute, backslashed, drive-lettered or `..`-climbing doc paths before touching the disk. */
function docPathProblem(doc: string): string | undefined {
  if (doc.trim() === "") return "doc must not be empty";
  if (doc.includes("\\")) return "doc must use forward slashes";
  if (doc.startsWith("/") || /^[A-Za-z]:/.test(doc)) return "doc must be a relative path";
  if (doc.split("/").includes("..")) return "doc must not contain '..' segments";
  return undefined;
}

/** A gold answer as written in the file. Extra fields are stripped, not refused. */
export const GoldSpanSchema = z.object({
  doc: z.string().superRefine((doc, ctx) => {
    const problem = docPathProblem(doc);
    if (problem) ctx.addIssue({ code: "custom", message: `${problem}: ${JSON.stringify(doc)}` });
  }),
  quote: z.string().min(1),
});

/** One judgment line as written in the file. Extra fields are stripped, not refused. */
export const JudgmentSchema = z
  .object({
    query_id: z.string().min(1),
    query: z.string().min(1),
    category: z.enum(JUDGMENT_CATEGORIES),
    gold: z.array(GoldSpanSchema).default([]),
    notes: z.string().nullish(),
  })
  .superRefine((j, ctx) => {
    if (j.category === "no_answer") {
      if (j.gold.length > 0) ctx.addIssue({ code: "custom", message: "a no_answer judgment must have an empty gold list" });
    } else if (j.gold.length === 0) {
      ctx.addIssue({ code: "custom", message: `a ${j.category} judgment needs at least one gold span` });
    } else if (j.category === "ambiguous" && j.gold.length < 2) {
      ctx.addIssue({ code: "custom", message: "an ambiguous judgment needs at least 2 gold spans" });
    }
  });
/** A parsed, not yet resolved judgment. */
export type Judgment = z.infer<typeof JudgmentSchema>;

/** A gold quote resolved to code-point offsets `[start, end)` of its document's content. */
export interface ResolvedGold {
  doc: string;
  quote: string;
  start: number;
  end: number;
}

/** A judgment whose every gold quote resolved exactly once. */
export interface ResolvedJudgment {
  query_id: string;
  query: string;
  category: JudgmentCategory;
  gold: ResolvedGold[];
  notes: string | undefined;
}

/**
 * Returns a document's content, exactly as the index stores it (offsets are taken from it).
 * `docPath` is absolute and already checked to lie under the corpus directory.
 */
export type ContentOf = (docPath: string) => Promise<string>;

/** Options for {@link loadJudgments}. */
export interface LoadJudgmentsOptions {
  /**
   * Content provider. The default reads .md/.markdown/.txt files as strict UTF-8 with
   * BOM stripped and newlines normalized (the `text` source class) and refuses .pdf/.html,
   * whose content only an extractor can produce — plug one in here.
   */
  contentOf?: ContentOf;
}

/**
 * The default {@link ContentOf}: a text document's normalized content.
 *
 * @example
 *   const content = await readTextContent("/repo/evals/corpus/backups.md");
 */
export async function readTextContent(docPath: string): Promise<string> {
  const ext = path.extname(docPath).toLowerCase();
  if (EXTRACTED_DOC_EXTENSIONS.includes(ext)) {
    throw new GroundkitError(
      "JUDGMENT_INVALID",
      `${path.basename(docPath)} needs an extractor: pass a contentOf that extracts ${ext} documents.`,
      { doc: docPath },
    );
  }
  if (!TEXT_DOC_EXTENSIONS.includes(ext)) {
    throw new GroundkitError("JUDGMENT_INVALID", `Unsupported judgment document type ${JSON.stringify(ext)}.`, {
      doc: docPath,
    });
  }
  const bytes = await readFile(docPath);
  try {
    return normalizeNewlines(decodeUtf8Strict(bytes));
  } catch (err) {
    if (err instanceof Utf8DecodeError) {
      throw new GroundkitError("JUDGMENT_INVALID", `${docPath} is not valid UTF-8 (byte ${err.byteOffset}).`, {
        doc: docPath,
      });
    }
    throw err;
  }
}

/**
 * Find `quote` in `content` exactly once and return its code-point span.
 * Fails closed both ways: not found is an error, and so is a second (possibly overlapping) match —
 * silently taking the first would credit whichever passage happens to come first.
 *
 * @example
 *   resolveQuote(new CodePointText("a😀b"), "b") // { start: 2, end: 3 }
 */
export function resolveQuote(
  content: CodePointText,
  quote: string,
): { start: number; end: number } | "not_found" | "ambiguous" {
  const first = content.text.indexOf(quote);
  if (first < 0) return "not_found";
  if (content.text.indexOf(quote, first + 1) >= 0) return "ambiguous";
  const start = content.toCodePoint(first);
  return { start, end: content.toCodePoint(first + quote.length) };
}

function invalid(message: string, detail: Record<string, unknown>, cause?: unknown): GroundkitError {
  return new GroundkitError("JUDGMENT_INVALID", message, detail, cause === undefined ? undefined : { cause });
}

/** Parse JSONL text into validated judgments; errors name the file and 1-based line. */
export function parseJudgments(text: string, fileLabel = "judgments"): Judgment[] {
  const out: Judgment[] = [];
  const seen = new Set<string>();
  const lines = normalizeNewlines(text).split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") continue;
    const where = `${fileLabel}:${i + 1}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      throw invalid(`${where}: invalid JSON: ${(err as Error).message}`, { line: i + 1 }, err);
    }
    const parsed = JudgmentSchema.safeParse(raw);
    if (!parsed.success) {
      throw invalid(`${where}: invalid judgment: ${formatIssues(parsed.error, { root: "(line)" })}`, { line: i + 1 });
    }
    const j = parsed.data;
    if (seen.has(j.query_id)) throw invalid(`${where}: duplicate query_id ${JSON.stringify(j.query_id)}`, { line: i + 1 });
    seen.add(j.query_id);
    out.push(j);
  }
  return out;
}

/**
 * Load a JSONL judgments file and resolve every gold quote against the corpus.
 *
 * Judgments keep file order. A missing document, a document outside `corpusDir`, a quote that
 * does not occur, or one that occurs more than once all throw `JUDGMENT_INVALID` naming the
 * query_id and doc.
 *
 * @example
 *   const judgments = await loadJudgments("evals/judgments.jsonl", "evals/corpus");
 *   judgments[0].gold[0] // { doc: "backups.md", quote: "...", start: 1042, end: 1101 }
 */
export async function loadJudgments(
  file: string,
  corpusDir: string,
  options: LoadJudgmentsOptions = {},
): Promise<ResolvedJudgment[]> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    // A missing file is a wrong path, not a bad judgment: say so with the path hint.
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      throw new GroundkitError("SOURCE_NOT_FOUND", `The judgments file ${path.resolve(file)} does not exist.`, { file }, { cause: err });
    }
    throw invalid(`Cannot read judgments file ${file}: ${(err as Error).message}`, { file }, err);
  }
  let text: string;
  try {
    text = decodeUtf8Strict(bytes);
  } catch (err) {
    throw invalid(`Judgments file ${file} is not valid UTF-8.`, { file }, err);
  }
  const judgments = parseJudgments(text, file);
  return resolveJudgments(judgments, corpusDir, options);
}

/** Resolve already-parsed judgments against `corpusDir` (see {@link loadJudgments}). */
export async function resolveJudgments(
  judgments: Judgment[],
  corpusDir: string,
  options: LoadJudgmentsOptions = {},
): Promise<ResolvedJudgment[]> {
  const contentOf = options.contentOf ?? readTextContent;
  let base: string;
  try {
    base = await realpath(corpusDir);
  } catch (err) {
    throw invalid(`Corpus directory ${corpusDir} is not readable: ${(err as Error).message}`, { corpusDir }, err);
  }
  // Many judgments share a document: read (or extract) each once.
  const cache = new Map<string, Promise<CodePointText>>();
  const contentFor = (doc: string, queryId: string): Promise<CodePointText> => {
    let p = cache.get(doc);
    if (!p) {
      p = (async () => {
        let real: string;
        try {
          real = await realpath(path.join(base, ...doc.split("/")));
        } catch (err) {
          throw invalid(`${queryId}: document ${doc} not found under ${corpusDir}.`, { query_id: queryId, doc }, err);
        }
        // Containment runs before any read or extractor: a symlink may not leave the corpus.
        if (real !== base && !real.startsWith(base + path.sep)) {
          throw invalid(`${queryId}: document ${doc} resolves outside ${corpusDir}.`, { query_id: queryId, doc });
        }
        return new CodePointText(await contentOf(real));
      })();
      cache.set(doc, p);
    }
    return p;
  };

  const out: ResolvedJudgment[] = [];
  for (const j of judgments) {
    const gold: ResolvedGold[] = [];
    for (const g of j.gold) {
      const content = await contentFor(g.doc, j.query_id);
      const span = resolveQuote(content, g.quote);
      if (span === "not_found") {
        throw invalid(`${j.query_id}: quote not found in ${g.doc}: ${JSON.stringify(g.quote)}`, {
          query_id: j.query_id,
          doc: g.doc,
        });
      }
      if (span === "ambiguous") {
        throw invalid(
          `${j.query_id}: quote occurs more than once in ${g.doc} (extend it until it is unique): ${JSON.stringify(g.quote)}`,
          { query_id: j.query_id, doc: g.doc },
        );
      }
      gold.push({ doc: g.doc, quote: g.quote, start: span.start, end: span.end });
    }
    out.push({ query_id: j.query_id, query: j.query, category: j.category, gold, notes: j.notes ?? undefined });
  }
  return out;
}

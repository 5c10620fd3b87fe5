/**
 * The registry of extractors this process can actually run.
 *
 * Built lazily on first use, never at import time, so importing the library does
 * not load pdfjs-dist or htmlparser2 (nor start the extraction worker); ingest
 * probes only the kinds it meets.
 * Each extractor is probed on its own (dynamic import inside try/catch): a
 * missing or broken dependency disables only its own kind, records why, and
 * never hides the other. Memoized per process: the set of
 * active identities is a property of the installation, not of a request.
 */
import { GroundkitError, type ErrorCode } from "../core/errors.js";
import { createIsolatedExtractor } from "./extraction-pool.js";
import type { Extractor, ExtractorKind } from "./extractor.js";

/** Lookups over the extractors that loaded, and the reasons for those that did not. */
export interface ExtractorRegistry {
  /** The extractor for `kind`, or undefined when its dependency is missing or broken. */
  get(kind: ExtractorKind): Extractor | undefined;
  /** Why `kind` is unavailable, or undefined when it is available. */
  problem(kind: ExtractorKind): string | undefined;
  /** Identities of every available extractor, sorted. */
  activeIdentities(): string[];
  /** The available extractor whose identity is exactly `identity`, used to re-run a recorded one. */
  byIdentity(identity: string): Extractor | undefined;
}

/** A factory for one kind of extractor; throws when it cannot be built. */
export type ExtractorProbe = () => Promise<Extractor>;

/**
 * The probes used by {@link getExtractorRegistry}: each loads its kind in the
 * bounded extraction worker (extraction-pool.ts), so the extractors handed out
 * never parse in the caller's thread and honour every extraction limit.
 */
export const DEFAULT_EXTRACTOR_PROBES: Readonly<Record<ExtractorKind, ExtractorProbe>> = {
  pdf: () => createIsolatedExtractor("pdf"),
  html: () => createIsolatedExtractor("html"),
  office: () => createIsolatedExtractor("office"),
};

const EXTENSION_KINDS: Readonly<Record<string, ExtractorKind>> = {
  ".pdf": "pdf",
  ".html": "html",
  ".htm": "html",
  // Office documents and e-books (macro-enabled variants too, so they are refused by name rather than skipped).
  ".docx": "office",
  ".docm": "office",
  ".dotx": "office",
  ".pptx": "office",
  ".pptm": "office",
  ".ppsx": "office",
  ".potx": "office",
  ".xlsx": "office",
  ".xlsm": "office",
  ".xltx": "office",
  ".odt": "office",
  ".odp": "office",
  ".ods": "office",
  ".epub": "office",
};

/**
 * The extractor kind for a file extension (leading dot optional, case-insensitive).
 *
 * @example
 *   extractorKindForExtension(".PDF") // "pdf"
 *   extractorKindForExtension(".md")  // undefined
 */
export function extractorKindForExtension(ext: string): ExtractorKind | undefined {
  const lower = ext.toLowerCase();
  const key = lower.startsWith(".") ? lower : `.${lower}`;
  return Object.hasOwn(EXTENSION_KINDS, key) ? EXTENSION_KINDS[key] : undefined;
}

/** Every file extension (lowercase, with dot) some extractor reads. */
export function extractedExtensions(): string[] {
  return Object.keys(EXTENSION_KINDS);
}

/** What probing one kind gave: its extractor, or why there is none. */
export type ProbeOutcome = { extractor: Extractor } | { problem: string; code?: ErrorCode };

/** Run one kind's probe, turning any failure into a stated problem. */
async function probeKind(kind: ExtractorKind, probe: ExtractorProbe): Promise<ProbeOutcome> {
  try {
    const extractor = await probe();
    if (extractor.kind !== kind) return { problem: `the ${kind} probe produced a ${extractor.kind} extractor` };
    return { extractor };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    // A missing optional package keeps its code, so the user gets its install hint rather than "could not be parsed".
    const code = err instanceof GroundkitError && err.code === "OPTIONAL_PACKAGE_MISSING" ? err.code : undefined;
    return { problem: `the ${kind} extractor is unavailable: ${reason}`, ...(code ? { code } : {}) };
  }
}

/** A registry over every kind of `probes`, each kind's outcome coming from `outcomeOf`. */
async function registryOf(
  probes: Readonly<Record<ExtractorKind, ExtractorProbe>>,
  outcomeOf: (kind: ExtractorKind) => Promise<ProbeOutcome>,
): Promise<ExtractorRegistry> {
  const kinds = Object.keys(probes) as ExtractorKind[];
  const outcomes = await Promise.all(kinds.map(outcomeOf));
  const byKind = new Map<ExtractorKind, Extractor>();
  const problems = new Map<ExtractorKind, string>();
  outcomes.forEach((outcome, i) => {
    if ("extractor" in outcome) byKind.set(kinds[i]!, outcome.extractor);
    else problems.set(kinds[i]!, outcome.problem);
  });
  const byIdentity = new Map<string, Extractor>();
  for (const extractor of byKind.values()) byIdentity.set(extractor.identity, extractor);
  const identities = [...byIdentity.keys()].sort();
  return {
    get: (kind) => byKind.get(kind),
    problem: (kind) => problems.get(kind),
    activeIdentities: () => [...identities],
    byIdentity: (identity) => byIdentity.get(identity),
  };
}

/**
 * Build a registry by running every probe independently. Exposed so callers (and
 * tests) can assemble a registry from their own probes; production code uses
 * {@link getExtractorRegistry}.
 *
 * @example
 *   const registry = await createExtractorRegistry({ ...DEFAULT_EXTRACTOR_PROBES });
 *   registry.problem("pdf") // undefined when pdfjs-dist loaded
 */
export async function createExtractorRegistry(
  probes: Readonly<Record<ExtractorKind, ExtractorProbe>>,
): Promise<ExtractorRegistry> {
  return registryOf(probes, (kind) => probeKind(kind, probes[kind]));
}

const kindMemo = new Map<ExtractorKind, Promise<ProbeOutcome>>();

/**
 * One kind's extractor (or why it is unavailable), probed on first call and
 * memoized per process. Ingest asks only for the kinds it meets, so a
 * Markdown-only run never loads pdfjs-dist (a large module whose loading
 * costs time and memory).
 *
 * @example
 *   const outcome = await getExtractorOf("pdf");
 *   if ("extractor" in outcome) await outcome.extractor.extract(bytes);
 */
export function getExtractorOf(kind: ExtractorKind): Promise<ProbeOutcome> {
  let outcome = kindMemo.get(kind);
  if (outcome === undefined) {
    outcome = probeKind(kind, DEFAULT_EXTRACTOR_PROBES[kind]);
    kindMemo.set(kind, outcome);
  }
  return outcome;
}

let memo: Promise<ExtractorRegistry> | undefined;

/**
 * The process-wide registry of every kind, built on first call and memoized
 * (concurrent first calls share one build; each kind's probe is shared with
 * {@link getExtractorOf}).
 *
 * @example
 *   const registry = await getExtractorRegistry();
 *   const extractor = registry.byIdentity(citation.extractor);
 *   if (!extractor) {
 *     // unresolvable: recorded identity is not among registry.activeIdentities()
 *   }
 */
export function getExtractorRegistry(): Promise<ExtractorRegistry> {
  memo ??= registryOf(DEFAULT_EXTRACTOR_PROBES, getExtractorOf);
  return memo;
}

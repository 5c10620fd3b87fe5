/**
 * The registry of extractors this process can actually run.
 *
 * Built lazily on first use, never at import time, so importing the library does
 * not load pdfjs-dist or htmlparser2. Each extractor is probed on its own (dynamic
 * import inside try/catch): a missing or broken dependency disables only its own
 * kind, records why, and never hides the other. Memoized per process: the set of
 * active identities is a property of the installation, not of a request.
 */
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

/** The probes used by {@link getExtractorRegistry}. */
export const DEFAULT_EXTRACTOR_PROBES: Readonly<Record<ExtractorKind, ExtractorProbe>> = {
  pdf: async () => (await import("./pdf.js")).createPdfExtractor(),
  html: async () => (await import("./html.js")).createHtmlExtractor(),
};

const EXTENSION_KINDS: Readonly<Record<string, ExtractorKind>> = {
  ".pdf": "pdf",
  ".html": "html",
  ".htm": "html",
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
  const byKind = new Map<ExtractorKind, Extractor>();
  const problems = new Map<ExtractorKind, string>();
  const kinds = Object.keys(probes) as ExtractorKind[];
  const outcomes = await Promise.allSettled(kinds.map((kind) => probes[kind]()));
  outcomes.forEach((outcome, i) => {
    const kind = kinds[i]!;
    if (outcome.status === "rejected") {
      const reason = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
      problems.set(kind, `the ${kind} extractor is unavailable: ${reason}`);
    } else if (outcome.value.kind !== kind) {
      problems.set(kind, `the ${kind} probe produced a ${outcome.value.kind} extractor`);
    } else {
      byKind.set(kind, outcome.value);
    }
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

let memo: Promise<ExtractorRegistry> | undefined;

/**
 * The process-wide registry, built on first call and memoized (concurrent first
 * calls share one build).
 *
 * @example
 *   const registry = await getExtractorRegistry();
 *   const extractor = registry.byIdentity(citation.extractor);
 *   if (!extractor) {
 *     // unresolvable: recorded identity is not among registry.activeIdentities()
 *   }
 */
export function getExtractorRegistry(): Promise<ExtractorRegistry> {
  memo ??= createExtractorRegistry(DEFAULT_EXTRACTOR_PROBES);
  return memo;
}

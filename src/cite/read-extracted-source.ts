/**
 * Obtain an `extracted` source's current text: the identity recorded at
 * ingest must be active in this build (else unresolvable, naming both), then
 * the same extractor re-runs over the file's current bytes, through the
 * process's extraction cache (same bytes and identity: the text already
 * extracted; docs/decisions/0024-extraction-cache-and-scheduling.md). A failed
 * re-extraction is unresolvable, never drifted: nothing could be read to
 * compare (a file over an extraction limit included: the limits bound every
 * re-run as they bound ingest). Work for a caller who went away, and work over
 * the caller's queue share, is refused as such (REQUEST_CANCELLED,
 * EXTRACTION_BUSY): that says nothing about the source.
 */
import { readContainedFile } from "../source/contained-read.js";
import type { Citation } from "../core/contracts.js";
import { GroundkitError } from "../core/errors.js";
import { currentRequestScope } from "../core/request-scope.js";
import { getExtractionCache } from "../extract/extraction-cache.js";
import type { ExtractionLimits } from "../extract/limits.js";
import { getExtractorRegistry } from "../extract/registry.js";
import { unresolvable } from "./resolution-error.js";
import type { SourceText } from "./source-text.js";

export async function readExtractedSource(
  citation: Citation,
  realPath: string,
  maxBytes: number,
  limits?: Partial<ExtractionLimits>,
): Promise<SourceText> {
  const registry = await getExtractorRegistry();
  const recorded = citation.extractor ?? "(none)";
  const extractor = registry.byIdentity(recorded);
  if (!extractor) {
    const active = registry.activeIdentities();
    // Say why a kind is missing (an optional package not installed names its install command).
    const problems = (["pdf", "html"] as const).map((kind) => registry.problem(kind)).filter((p) => p !== undefined);
    throw unresolvable(
      `the extractor recorded at ingest (${recorded}) is not active in this build ` +
        `(active: ${active.length ? active.join(", ") : "none"}); re-deriving the offsets needs the exact same extractor.` +
        (problems.length ? ` ${problems.join("; ")}.` : ""),
    );
  }
  try {
    const bytes = await readContainedFile(realPath, maxBytes, citation.source);
    const owner = currentRequestScope();
    const { text, pageStarts, sourceLines } = await getExtractionCache().extract(extractor, bytes, undefined, {
      label: citation.source,
      limits,
      owner,
    });
    return { text, pageStarts: pageStarts ?? [], sourceLines };
  } catch (err) {
    if (err instanceof GroundkitError && (err.code === "REQUEST_CANCELLED" || err.code === "EXTRACTION_BUSY")) throw err;
    if (err instanceof GroundkitError) throw unresolvable(`re-extraction with ${recorded} failed: ${err.message}`);
    throw err;
  }
}

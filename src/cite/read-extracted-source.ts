/**
 * Obtain an `extracted` source's current text: the identity recorded at
 * ingest must be active in this build (else unresolvable, naming both), then
 * the same extractor re-runs over the file. A failed re-extraction is
 * unresolvable, never drifted: nothing could be read to compare (a file over
 * an extraction limit included: the limits bound every re-run as they bound ingest).
 */
import { readContainedFile } from "../source/contained-read.js";
import type { Citation } from "../core/contracts.js";
import { GroundkitError } from "../core/errors.js";
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
    const problems = (["pdf", "html", "office"] as const).map((kind) => registry.problem(kind)).filter((p) => p !== undefined);
    throw unresolvable(
      `the extractor recorded at ingest (${recorded}) is not active in this build ` +
        `(active: ${active.length ? active.join(", ") : "none"}); re-deriving the offsets needs the exact same extractor.` +
        (problems.length ? ` ${problems.join("; ")}.` : ""),
    );
  }
  try {
    const bytes = await readContainedFile(realPath, maxBytes, citation.source);
    const { text, pageStarts, sourceLines, locations } = await extractor.extract(bytes, undefined, { label: citation.source, limits });
    return { text, pageStarts: pageStarts ?? [], sourceLines, locations };
  } catch (err) {
    if (err instanceof GroundkitError) throw unresolvable(`re-extraction with ${recorded} failed: ${err.message}`);
    throw err;
  }
}

/**
 * The text around a verified `text`-class citation, so a reader sees the cited
 * span in place (the web page highlights it). Read through the same containment
 * and decoding as verification, and only returned when the span still hashes to
 * the citation: never text from a source that drifted or escaped its base dir.
 */
import { isAbsolute, sep } from "node:path";
import { readTextSource } from "../cite/read-text-source.js";
import { DEFAULTS } from "../core/config.js";
import { resolveContained } from "../core/containment.js";
import type { Citation } from "../core/contracts.js";
import { CodePointText, sha256 } from "../core/text.js";

/** Text before and after a cited span (code points, at most the requested count each). */
export interface ChunkContext {
  before: string;
  after: string;
}

/**
 * Surrounding text for a citation, or null when it cannot be shown (not a
 * `text` source, no containing base dir, unreadable, or no longer matching).
 *
 * @example
 *   const ctx = await chunkContext(view.citation, 300, ["/srv/docs"]);
 */
export async function chunkContext(citation: Citation, chars: number, baseDirs: string[]): Promise<ChunkContext | null> {
  if (chars <= 0 || citation.source_class !== "text" || !isAbsolute(citation.source)) return null;
  const baseDir = deepestContaining(citation.source, baseDirs);
  if (!baseDir) return null;
  let content: CodePointText;
  try {
    const real = await resolveContained(citation.source, baseDir);
    content = new CodePointText(await readTextSource(real, citation.source, DEFAULTS.maxFileSize));
  } catch {
    return null;
  }
  const { start_offset: start, end_offset: end } = citation;
  if (end > content.length || sha256(content.slice(start, end)) !== citation.text_hash) return null;
  return {
    before: content.slice(Math.max(0, start - chars), start),
    after: content.slice(end, Math.min(content.length, end + chars)),
  };
}

function deepestContaining(source: string, dirs: string[]): string | undefined {
  return dirs
    .filter((d) => source === d || source.startsWith(d.endsWith(sep) ? d : d + sep))
    .sort((a, b) => b.length - a.length)[0];
}

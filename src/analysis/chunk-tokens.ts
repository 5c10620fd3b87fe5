/**
 * What a chunk contributes to the BM25 index: its text and its heading path
 * (so a passage deep in a section still matches the section's title words).
 */
import { analyzeForIndex } from "./analyzer.js";

export function chunkTokens(text: string, headingPath: readonly string[]): string[] {
  return analyzeForIndex(headingPath.length > 0 ? `${headingPath.join(" ")}\n${text}` : text);
}

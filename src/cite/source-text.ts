import type { LocationMap } from "../core/locations.js";
import type { SourceLineMap } from "../core/source-lines.js";

/**
 * What re-reading a source yields: its current text and, when its class can
 * say, where its pages start and which file line each part came from, so a
 * citation's pages and source lines are checked like its lines.
 */
export interface SourceText {
  text: string;
  /**
   * Code-point offset of each page start (PDFs); `[]` when the source has no
   * pages; absent when they cannot be known (a snapshot stores the text only).
   */
  pageStarts?: readonly number[] | undefined;
  /** Which line of the source file each run of `text` came from (HTML); absent when the extractor cannot say. */
  sourceLines?: SourceLineMap | undefined;
  /** Where each run of `text` sits in an office document or e-book; absent for other sources. */
  locations?: LocationMap | undefined;
}

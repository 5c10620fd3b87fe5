/**
 * What re-reading a source yields: its current text and, when its class can
 * say, where its pages start, so a citation's pages are checked like its lines.
 */
export interface SourceText {
  text: string;
  /**
   * Code-point offset of each page start (PDFs); `[]` when the source has no
   * pages; absent when they cannot be known (a snapshot stores the text only).
   */
  pageStarts?: readonly number[] | undefined;
}

/** A synthetic chunk row for store tests: passage `j` of document `i` at `version`, 40 characters on line j + 1. */
import type { NewChunk } from "../../src/store/store.js";

export function passageChunk(i: number, j: number, version: number): NewChunk {
  return {
    chunk_id: `c-${i}-${j}-v${version}`,
    ordinal: j,
    text: `document ${i} passage ${j} version ${version}`,
    start_offset: j * 100,
    end_offset: j * 100 + 40,
    start_line: j + 1,
    end_line: j + 1,
    page_start: null,
    page_end: null,
    text_hash: `t${i}.${j}.${version}`,
    heading_path: [],
  };
}

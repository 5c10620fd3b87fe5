/**
 * store/chunk-row-cache.ts: the rows of recent hits, shared by both stores.
 * A row read recently stays however many new rows arrive, one never read
 * again goes once about the budget's worth of others came in, the memory
 * held stays within the budget, and scopes never answer for each other.
 */
import { describe, expect, it } from "vitest";
import { ChunkRowCache } from "../src/store/chunk-row-cache.js";
import type { JoinedRow } from "../src/store/rows.js";

/** A row whose cost in the cache is 2 × (1000 + 2 + 2 + 10) + 200 = 2,228 bytes. */
function row(id: number): JoinedRow {
  return {
    chunk_id: `c${id}`,
    ordinal: 0,
    text: "x".repeat(1000),
    start_offset: 0,
    end_offset: 1000,
    start_line: 1,
    end_line: 1,
    page_start: null,
    page_end: null,
    text_hash: "h",
    chunk_metadata: "{}",
    document_id: `d${id}`,
    source: `/docs/${String(id).padStart(4, "0")}.md`,
    source_class: "text",
    extractor: null,
    base_dir: null,
    fingerprint: "f",
    content_hash: "h",
    content_length: 1000,
    ingested_at: "2026-12-06T00:00:00.000Z",
    metadata: "{}",
  };
}
const ROW_BYTES = 2228;

describe("ChunkRowCache", () => {
  it("keeps a row that is read while ten budgets' worth of new rows pass through, and stays within its budget", () => {
    const budget = 100 * ROW_BYTES;
    const cache = new ChunkRowCache(budget);
    cache.put("s", 0, row(0));
    for (let id = 1; id <= 1000; id++) {
      cache.put("s", id, row(id));
      if (id % 20 === 0) expect(cache.get("s", 0)?.chunk_id).toBe("c0");
      expect(cache.size * ROW_BYTES).toBeLessThanOrEqual(budget);
    }
    expect(cache.get("s", 0)?.chunk_id).toBe("c0");
  });

  it("drops a row never read again once a budget's worth of others came in", () => {
    const cache = new ChunkRowCache(100 * ROW_BYTES);
    cache.put("s", 0, row(0));
    expect(cache.get("s", 0)).toBeDefined();
    for (let id = 1; id <= 100; id++) cache.put("s", id, row(id));
    expect(cache.get("s", 0)).toBeUndefined();
    expect(cache.get("s", 100)?.chunk_id).toBe("c100");
  });

  it("answers only for the scope a row was put under; put replaces; clear forgets; a zero budget holds nothing", () => {
    const cache = new ChunkRowCache(100 * ROW_BYTES);
    cache.put("a", 7, row(7));
    expect(cache.get("b", 7)).toBeUndefined();
    cache.put("a", 7, row(8));
    expect(cache.get("a", 7)?.chunk_id).toBe("c8");
    expect(cache.hits).toBe(1);
    expect(cache.misses).toBe(1);
    cache.clear();
    expect(cache.get("a", 7)).toBeUndefined();
    const none = new ChunkRowCache(0);
    none.put("a", 1, row(1));
    expect(none.get("a", 1)).toBeUndefined();
  });
});

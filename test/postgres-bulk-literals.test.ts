/**
 * A PostgreSQL write batch sends its postings as array literals it builds
 * itself (bulk-write.ts), sorted by term. Against a real server: the literals
 * read back as exactly the postings given, in (term, given order) order, for
 * terms holding the characters an array literal treats specially.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { NewChunk, StoredDocument } from "../src/store/store.js";
import { bulkInsertStatement } from "../src/store/postgres/bulk-write.js";
import { openPool } from "./support/pg-pool.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

const HOSTILE = ['say "hi"', "back\\slash", "\\", '"', "{brace}", "a,b", " padded ", "NULL", "null", "é", "😀", "it's", "tab\there"];

function doc(): StoredDocument {
  return {
    document_id: "doc",
    source: "/x.md",
    source_class: "text",
    extractor: null,
    base_dir: null,
    fingerprint: "f",
    content_hash: "h",
    content_length: 1,
    ingested_at: "2026-12-07T00:00:00.000Z",
    metadata: {},
  };
}

function chunk(i: number): NewChunk {
  return { chunk_id: `c${i}`, ordinal: i, text: "x", start_offset: 0, end_offset: 1, start_line: 1, end_line: 1, page_start: null, page_end: null, text_hash: "h", heading_path: [] };
}

it("postings literals read back as the postings given, sorted by term, ties in the order given", async () => {
  // Two chunks sharing some terms: a term's postings must stay in chunk order.
  const postings = [
    { terms: HOSTILE, tfs: HOSTILE.map((_, i) => i + 1), dl: 40 },
    { terms: ["zeta", '"', "back\\slash", "alpha"], tfs: [7, 8, 9, 10], dl: 12 },
  ];
  const st = bulkInsertStatement([{ doc: doc(), chunks: [chunk(0), chunk(1)], postings }]);
  const pool = openPool(pg.url);
  try {
    // $24..$27 of the batch statement: the postings' terms, chunk positions, term frequencies and lengths.
    const { rows } = await pool.query(
      "SELECT t, c::float8 AS c, tf, dl FROM unnest($1::text[], $2::bigint[], $3::int[], $4::int[]) WITH ORDINALITY AS x(t, c, tf, dl, n) ORDER BY n",
      st.params!.slice(23, 27),
    );
    const expected = postings
      .flatMap((p, c) => p.terms.map((t, k) => ({ t, c: c + 1, tf: p.tfs[k]!, dl: p.dl })))
      .map((x, i) => ({ ...x, i }))
      .sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : a.i - b.i))
      .map(({ t, c, tf, dl }) => ({ t, c, tf, dl }));
    expect(rows).toEqual(expected);
  } finally {
    await pool.end();
  }
});

/**
 * The red-team's reproductions of issue 12, items 8 and 9, through the
 * library on a real ingested file: a same-length edit that turns spaces into
 * newlines before a span leaves its text at the same code points on other
 * lines (drifted, on every verification path, not verified), and a crafted
 * `end_offset: 1e15` gets a relocation of the cited text's own length, inside
 * the source.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type Collection } from "../src/collection/index.js";
import type { SearchHit } from "../src/core/contracts.js";
import { tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
let col: Collection;
let file: string;
let hit: SearchHit;

const DOC = "one two three four\nfive six seven eight\n\nThe quokka smiles at the camera.\nIt lives on an island.\n";

beforeAll(async () => {
  work = tempDir("grk-stale-");
  file = join(work.dir, "docs", "animals.md");
  mkdirSync(join(work.dir, "docs"));
  writeFileSync(file, DOC);
  col = await openCollection({ indexDir: join(work.dir, "idx"), collection: "c", create: true });
  await col.ingest([join(work.dir, "docs")], { chunkSize: 64, chunkOverlap: 0 });
  const hits = await col.search("quokka camera");
  hit = hits.find((h) => h.text.includes("quokka"))!;
  expect(hit.citation.start_line).toBe(4);
});
afterAll(async () => {
  await col.close();
  work.cleanup();
});

describe("lines are part of the claim", () => {
  it("a same-length edit moving the span to other lines is drifted, saying where", async () => {
    expect((await col.verify(hit)).verdict).toBe("verified");
    const original = readFileSync(file, "utf8");
    // Two spaces before the span become newlines: same code points, two lines further down.
    writeFileSync(file, original.replace("one two", "one\ntwo").replace("six seven", "six\nseven"));
    const { start_offset: s, end_offset: e, start_line: a, end_line: b } = hit.citation;
    const want = `the text is unchanged at code points ${s}-${e}, but now on ${a === b ? `line ${a + 2} (cited ${a})` : `lines ${a + 2}-${b + 2} (cited ${a}-${b})`}.`;
    const viaVerify = await col.verify(hit);
    expect(viaVerify).toEqual({ verdict: "drifted", detail: want });
    const [viaSearch] = (await col.search("quokka camera", { verify: true })).filter((h) => h.chunk_id === hit.chunk_id);
    expect(viaSearch?.verification).toEqual({ verdict: "drifted", detail: want });
    const viaFetch = await col.getChunk(hit.chunk_id, { contextChars: 10 });
    expect(viaFetch.verification).toEqual({ verdict: "drifted", detail: want });
    expect(viaFetch.context).toBeNull();
    writeFileSync(file, original);
  });

  it("a crafted end offset never stretches the relocation past the source", async () => {
    writeFileSync(file, "A new first line.\n" + DOC);
    const crafted = { citation: { ...hit.citation, end_offset: 1e15 }, text: hit.text };
    const v = await col.verify(crafted, { originalText: hit.text });
    expect(v.verdict).toBe("drifted");
    const at = hit.citation.start_offset + 18;
    expect(v.relocated).toEqual({ start_offset: at, end_offset: at + [...hit.text].length });
    // The claim is echoed as cited; every offset said to be in the source is inside it.
    expect(v.detail).toContain(`the cited span ends at 1000000000000000. The cited text now sits at code points ${at}-${at + [...hit.text].length} `);
    expect(v.relocated!.end_offset).toBeLessThanOrEqual([...readFileSync(file, "utf8")].length);
  });
});

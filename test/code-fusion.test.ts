/** Hybrid fusion of code chunks (ADR 0034): BM25's confident order survives a prose embedding model's votes. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { collectionSettings } from "../src/collection/settings.js";
import { loadConfigFile } from "../src/core/config.js";
import { fuseHybrid } from "../src/retrieve/hybrid.js";
import { DEFAULT_CODE_DENSE_WEIGHT, reorderCodeChunks } from "../src/retrieve/code-fusion.js";
import { isProgrammingLanguage } from "../src/core/code-languages.js";
import type { ScoredChunk } from "../src/store/store.js";
import { scoredChunk } from "./support/scored-chunk.js";

/** A scored chunk; `lang` makes it a code chunk (or a data file's, for `json`). */
function chunk(id: string, score: number, lang?: string): ScoredChunk {
  return scoredChunk({ chunk_id: id, text: id, text_hash: id, source: `/src/${id}`, score, ...(lang !== undefined ? { code: { lang, symbols: [], within: [] } } : {}) });
}

describe("hybrid fusion of code chunks", () => {
  it("keeps BM25's far surer top code hit first where rank fusion let the dense votes reorder it", () => {
    // BM25 is sure of `parse` (12 against 3 and 2.9); the prose model does not find it (under its floor).
    const lexical = [chunk("parse", 12, "typescript"), chunk("format", 3, "typescript"), chunk("print", 2.9, "typescript")];
    const dense = [chunk("print", 0.52, "typescript"), chunk("format", 0.5, "typescript")];
    const fused = fuseHybrid(lexical, dense, 3);
    // Rank fusion alone: print, format (two votes each), then parse.
    expect(fused.map((c) => c.chunk_id)).toEqual(["parse", "print", "format"]);
    // The places keep rank fusion's scores, so scores still fall with rank.
    expect(fused[0]!.score).toBeGreaterThanOrEqual(fused[1]!.score);
    expect(fused[1]!.score).toBeGreaterThanOrEqual(fused[2]!.score);
  });

  it("leaves prose fused exactly as before, and code chunks in the places rank fusion gave them", () => {
    const lexical = [chunk("guide", 9), chunk("parse", 8, "python"), chunk("notes", 4), chunk("format", 1, "python")];
    const dense = [chunk("format", 0.8, "python"), chunk("notes", 0.7), chunk("guide", 0.4)];
    const proseOnly = fuseHybrid(lexical.map((c) => ({ ...c, code: undefined })), dense.map((c) => ({ ...c, code: undefined })), 4);
    const fused = fuseHybrid(lexical, dense, 4);
    const isCode = (id: string) => id === "parse" || id === "format";
    expect(fused.map((c) => isCode(c.chunk_id))).toEqual(proseOnly.map((c) => isCode(c.chunk_id)));
    expect(fused.map((c) => c.score)).toEqual(proseOnly.map((c) => c.score));
    expect(fused.filter((c) => !isCode(c.chunk_id)).map((c) => c.chunk_id)).toEqual(
      proseOnly.filter((c) => !isCode(c.chunk_id)).map((c) => c.chunk_id),
    );
    // Rank fusion put `format` (dense 1st, BM25 4th) above `parse` (BM25 2nd only); among code, BM25's gap decides.
    expect(proseOnly.filter((c) => isCode(c.chunk_id)).map((c) => c.chunk_id)).toEqual(["format", "parse"]);
    expect(fused.filter((c) => isCode(c.chunk_id)).map((c) => c.chunk_id)).toEqual(["parse", "format"]);
  });

  it("treats configuration and data files like prose", () => {
    expect(isProgrammingLanguage("typescript")).toBe(true);
    expect(isProgrammingLanguage("json")).toBe(false);
    const lexical = [chunk("a", 12, "json"), chunk("b", 3, "json")];
    const dense = [chunk("b", 0.9, "json")];
    expect(fuseHybrid(lexical, dense, 2).map((c) => c.chunk_id)).toEqual(["b", "a"]);
  });

  it("orders code by the configured dense share: all dense at 1, all BM25 at 0", () => {
    const lexical = [chunk("x", 10, "go"), chunk("y", 1, "go")];
    const dense = [chunk("y", 0.9, "go"), chunk("x", 0.35, "go")];
    const fused = [{ id: "x", score: 0.03 }, { id: "y", score: 0.02 }];
    const isCode = () => true;
    expect(reorderCodeChunks(fused, lexical, dense, isCode, 1).map((h) => h.id)).toEqual(["y", "x"]);
    expect(reorderCodeChunks(fused, lexical, dense, isCode, 0)).toEqual(fused);
    expect(DEFAULT_CODE_DENSE_WEIGHT).toBe(0.2);
  });

  it("places only ids the fused list holds (a dense side weighted 0 adds none)", () => {
    const lexical = [chunk("x", 2, "rust")];
    const dense = [chunk("z", 0.9, "rust"), chunk("x", 0.5, "rust")];
    expect(fuseHybrid(lexical, dense, 5, { weights: { dense: 0 } }).map((c) => c.chunk_id)).toEqual(["x"]);
  });

  it("reads code_dense_weight from the config file and refuses one outside [0, 1]", () => {
    const dir = mkdtempSync(join(tmpdir(), "grk-code-fusion-"));
    try {
      const file = join(dir, "groundkit.config.json");
      writeFileSync(file, JSON.stringify({ retrieval: { code_dense_weight: 0.4 } }));
      expect(collectionSettings(loadConfigFile(file)).retrieval?.codeDenseWeight).toBe(0.4);
      writeFileSync(file, JSON.stringify({ retrieval: { code_dense_weight: 1.5 } }));
      expect(() => loadConfigFile(file)).toThrow(/code_dense_weight/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

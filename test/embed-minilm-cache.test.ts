/**
 * The local model's graph cache: where it lives (overridable), that the built
 * graph is written under a key holding the weights' hash, that a cached graph
 * gives the same vectors, and that a damaged cache file is rebuilt, not fatal.
 */
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BERT_GRAPH_VERSION } from "../src/embed/minilm/bert-graph.js";
import { cacheDir } from "../src/embed/minilm/cache-dir.js";
import { createMiniLMProvider } from "../src/embed/minilm/provider.js";
import { tempDir } from "./support/cli.js";

let cache: { dir: string; cleanup: () => void };
beforeAll(() => {
  cache = tempDir("grk-graph-cache-");
});
afterAll(() => cache.cleanup());

describe("cache directory", () => {
  it("prefers GROUNDKIT_CACHE_DIR, then an absolute XDG_CACHE_HOME, then ~/.cache", () => {
    expect(cacheDir({ GROUNDKIT_CACHE_DIR: "/x/own", XDG_CACHE_HOME: "/x/xdg" })).toBe("/x/own");
    expect(cacheDir({ XDG_CACHE_HOME: "/x/xdg" })).toBe("/x/xdg/groundkit");
    expect(cacheDir({ XDG_CACHE_HOME: "relative/xdg" })).toBe(join(homedir(), ".cache", "groundkit"));
    expect(cacheDir({})).toBe(join(homedir(), ".cache", "groundkit"));
  });
});

describe("MiniLM graph cache", () => {
  it("writes the graph under the weights' hash, reuses it, and rebuilds a damaged one", async () => {
    const first = await createMiniLMProvider({ cache_dir: cache.dir, threads: 1 });
    const a = await first.embedQuery("certificates renew before they expire");
    const hash = /^all-MiniLM-L6-v2@([0-9a-f]{12});/.exec(first.identity.model)?.[1];
    await first.close?.();
    expect(hash).toBeDefined();
    const files = readdirSync(join(cache.dir, "models"));
    expect(files).toEqual([`all-MiniLM-L6-v2-${hash}-bert-g${BERT_GRAPH_VERSION}.onnx`]); // no temp file left behind
    const graph = join(cache.dir, "models", files[0]!);
    const size = statSync(graph).size;
    // Every build writes a new file and renames it into place, so the inode tells a reuse from a rebuild.
    const builtIno = statSync(graph).ino;

    const cached = await createMiniLMProvider({ cache_dir: cache.dir, threads: 1 });
    expect(Array.from(await cached.embedQuery("certificates renew before they expire"))).toEqual(Array.from(a));
    await cached.close?.();
    expect(statSync(graph).ino, "the second provider rebuilt the graph instead of reusing it").toBe(builtIno);

    writeFileSync(graph, "not an onnx model");
    const rebuilt = await createMiniLMProvider({ cache_dir: cache.dir, threads: 1 });
    expect(Array.from(await rebuilt.embedQuery("certificates renew before they expire"))).toEqual(Array.from(a));
    await rebuilt.close?.();
    expect(statSync(graph).size).toBe(size);
    expect(statSync(graph).ino, "the damaged graph was not rebuilt").not.toBe(builtIno);
  }, 120_000);
});

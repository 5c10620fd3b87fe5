/**
 * Moves at ingest and verification across files (issue 28), on real SQLite
 * files and a real PostgreSQL server (test/support/postgres-server.ts):
 * a renamed or moved file keeps its document id and chunk ids, and a citation
 * taken before the move is `drifted` with the new place; text moved into
 * another file is found there; text that only resembles the cited text is
 * never a relocation; a file that appears twice is paired deterministically.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type Collection, type OpenCollectionOptions } from "../src/collection/index.js";
import type { Citation } from "../src/core/contracts.js";
import { tempDir } from "./support/cli.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";

let pg: TestPostgres;
let work: { dir: string; cleanup: () => void };

beforeAll(async () => {
  pg = await startPostgres();
  process.env.GRK_MOVES_PG_URL = pg.url;
  work = tempDir("grk-moves-");
});
afterAll(async () => {
  await pg?.stop();
  work?.cleanup();
});

const ALPHA = "# Alpha\n\nThe quick brown fox jumps over the lazy dog near the riverbank.\n\nQuokkas live on Rottnest island.\n";
const BETA = "# Beta\n\nPelicans carry fish in their throat pouches, wrote the naturalist.\n";
const GAMMA = "# Gamma\n\nZebra stripes confuse biting flies, a field study found.\n";

let n = 0;
/** A fresh folder and collection per test, on one store kind. */
async function setup(store: "sqlite" | "postgres"): Promise<{ folder: string; col: Collection }> {
  const root = join(work.dir, `case-${++n}`);
  const folder = join(root, "docs");
  mkdirSync(join(folder, "a"), { recursive: true });
  const opts: OpenCollectionOptions = { indexDir: join(root, "idx"), collection: `moves${n}`, create: true };
  if (store === "postgres") opts.store = { kind: "postgres", url_env: "GRK_MOVES_PG_URL", schema: "moves" };
  return { folder, col: await openCollection(opts) };
}

/** The citation (and text) of the top hit for `query`. */
async function cite(col: Collection, query: string): Promise<{ citation: Citation; text: string }> {
  const [hit] = await col.search(query);
  expect(hit).toBeDefined();
  return { citation: hit!.citation, text: hit!.text };
}

for (const store of ["sqlite", "postgres"] as const) {
  describe(`moves and verification across files (${store})`, () => {
    it("a renamed file and a file moved across folders keep their document and chunk ids; citations follow them", async () => {
      const { folder, col } = await setup(store);
      try {
        writeFileSync(join(folder, "a", "alpha.md"), ALPHA);
        writeFileSync(join(folder, "beta.md"), BETA);
        writeFileSync(join(folder, "gamma.md"), GAMMA);
        expect((await col.ingest([folder])).indexed).toBe(3);
        const alpha = await cite(col, "quokkas rottnest");
        const beta = await cite(col, "pelicans pouches");

        mkdirSync(join(folder, "b"));
        renameSync(join(folder, "a", "alpha.md"), join(folder, "b", "alpha.md")); // across folders
        renameSync(join(folder, "beta.md"), join(folder, "beta-renamed.md")); // a rename
        const summary = await col.ingest([folder]);
        expect(summary).toMatchObject({ moved: 2, indexed: 0, removed: 0, unchanged: 1, chunks_written: 0 });

        const movedAlpha = await cite(col, "quokkas rottnest");
        expect(movedAlpha.citation.document_id).toBe(alpha.citation.document_id);
        expect(movedAlpha.citation.chunk_id).toBe(alpha.citation.chunk_id);
        expect(movedAlpha.citation.source).toBe(join(folder, "b", "alpha.md"));
        // Its path metadata followed it: a path filter finds it at the new path only.
        expect((await col.search("quokkas", { filters: ["path=b/*"] })).map((h) => h.document_id)).toEqual([alpha.citation.document_id]);
        expect(await col.search("quokkas", { filters: ["path=a/*"] })).toEqual([]);

        // The citation taken before the move: drifted, with the new source and the same place in it.
        const v = await col.verify(alpha.citation);
        expect(v.verdict).toBe("drifted");
        expect(v.relocated).toEqual({
          start_offset: alpha.citation.start_offset,
          end_offset: alpha.citation.end_offset,
          document_id: alpha.citation.document_id,
          source: join(folder, "b", "alpha.md"),
          start_line: alpha.citation.start_line,
          end_line: alpha.citation.end_line,
        });
        expect(v.detail).toContain(`moved from ${join(folder, "a", "alpha.md")} to ${join(folder, "b", "alpha.md")}`);
        expect((await col.verify(beta.citation)).relocated?.source).toBe(join(folder, "beta-renamed.md"));
        // The citation of the new place verifies.
        expect((await col.verify(movedAlpha.citation)).verdict).toBe("verified");

        // Edited after the move: the same document (its id is looked up, not derived from the new path).
        writeFileSync(join(folder, "b", "alpha.md"), ALPHA + "\nA line added later.\n");
        expect(await col.ingest([folder])).toMatchObject({ indexed: 1, moved: 0, removed: 0 });
        expect((await cite(col, "quokkas rottnest")).citation.document_id).toBe(alpha.citation.document_id);
        // Its former source is still known after that edit: the citation taken before the move is still followed.
        expect((await col.verify(alpha.citation)).relocated?.source).toBe(join(folder, "b", "alpha.md"));

        // A new, different file at the old path gets an id of its own (the moved document holds the old path's id).
        writeFileSync(join(folder, "a", "alpha.md"), GAMMA.replace("Zebra", "Okapi"));
        expect(await col.ingest([folder])).toMatchObject({ indexed: 1, failed: [] });
        const newcomer = await cite(col, "okapi stripes");
        expect(newcomer.citation.source).toBe(join(folder, "a", "alpha.md"));
        expect(newcomer.citation.document_id).not.toBe(alpha.citation.document_id);
        expect((await col.verify(newcomer.citation)).verdict).toBe("verified");
      } finally {
        await col.close();
      }
    });

    it("one file gone and two identical files appearing: the same-named one takes the id, the other is a new document", async () => {
      const { folder, col } = await setup(store);
      try {
        writeFileSync(join(folder, "a", "beta.md"), BETA);
        writeFileSync(join(folder, "gamma.md"), GAMMA);
        await col.ingest([folder]);
        const before = await cite(col, "pelicans pouches");
        rmSync(join(folder, "a", "beta.md"));
        mkdirSync(join(folder, "b"));
        mkdirSync(join(folder, "c"));
        writeFileSync(join(folder, "b", "copy.md"), BETA);
        writeFileSync(join(folder, "c", "beta.md"), BETA);
        expect(await col.ingest([folder])).toMatchObject({ moved: 1, indexed: 1, removed: 0 });
        const docs = (await col.listDocuments()).documents;
        const bySource = new Map(docs.map((d) => [d.source, d.document_id]));
        expect(bySource.get(join(folder, "c", "beta.md"))).toBe(before.citation.document_id);
        expect(bySource.get(join(folder, "b", "copy.md"))).not.toBe(before.citation.document_id);
        expect((await col.verify(before.citation)).relocated?.source).toBe(join(folder, "c", "beta.md"));
      } finally {
        await col.close();
      }
    });

    it("a section moved into another file (its file deleted) is found there; a near copy never is", async () => {
      const { folder, col } = await setup(store);
      try {
        writeFileSync(join(folder, "beta.md"), BETA);
        writeFileSync(join(folder, "gamma.md"), GAMMA);
        await col.ingest([folder]);
        const beta = await cite(col, "pelicans pouches");
        const gamma = await cite(col, "zebra stripes");

        // Beta's text pasted into a new file, beta.md deleted; Gamma's text left only with one letter changed.
        writeFileSync(join(folder, "merged.md"), `# Merged\n\nSome words first.\n\n${BETA}`);
        rmSync(join(folder, "beta.md"));
        writeFileSync(join(folder, "gamma.md"), GAMMA.replace("biting", "bitinG"));
        expect(await col.ingest([folder])).toMatchObject({ indexed: 2, removed: 1 });

        const v = await col.verify(beta.citation, { originalText: beta.text });
        expect(v.verdict).toBe("drifted");
        const at = `# Merged\n\nSome words first.\n\n`.length;
        expect(v.relocated).toMatchObject({ source: join(folder, "merged.md"), start_offset: at, end_offset: at + beta.text.length, start_line: 5 });
        expect(v.relocated?.document_id).not.toBe(beta.citation.document_id);

        const g = await col.verify(gamma.citation, { originalText: gamma.text });
        expect(g.verdict).toBe("drifted");
        expect(g.relocated).toBeUndefined();

        // Unknown document id, text nowhere: the uninformative answer of ADR 0005, unchanged.
        const forged = { ...beta.citation, document_id: "f".repeat(32), source: join(folder, "secret.env") };
        const u = await col.verify(forged, { originalText: "not in any document" });
        expect(u).toEqual({ verdict: "unresolvable", detail: `document '${"f".repeat(32)}' is not in collection '${col.name}'; only sources the collection indexed are verified.` });
      } finally {
        await col.close();
      }
    });

    it("a paragraph repeated in a file, one copy moved to another file: each citation follows its own copy (ADR 0037)", async () => {
      const { folder, col } = await setup(store);
      try {
        const para = "Remember to close the client once every request has finished.";
        const usage = `## Usage\n\nCreate the client with its origin and options.\n\n${para}\n\nRequests are queued per origin.\n\n`;
        const cleanup = `## Cleanup\n\nDrain the queue of pending requests first.\n\n${para}\n\nThe pool is then destroyed.\n`;
        const other = "# Other\n\nPelicans carry fish in their throat pouches.\n\n";
        const docPath = join(folder, "client.md");
        const otherPath = join(folder, "other.md");
        writeFileSync(docPath, `# Client\n\n${usage}${cleanup}`);
        writeFileSync(otherPath, other);
        await col.ingest([folder]);
        const documentId = (await cite(col, "client origin options")).citation.document_id;
        const check = await col.verifyQuote(para, { documentId });
        expect(check.occurrences).toHaveLength(2);
        const [stayed, moved] = check.occurrences.map((o) => o.citation);

        // The Cleanup section (with the second copy) moves to other.md; a line above shifts the first copy.
        const client = `# Client\n\nA new first paragraph.\n\n${usage}`;
        writeFileSync(docPath, client);
        writeFileSync(otherPath, other + cleanup);
        await col.ingest([folder]);

        for (const given of [{ originalText: para }, {}]) {
          const m = await col.verify(moved!, given);
          expect(m.verdict).toBe("drifted");
          const at = other.length + cleanup.indexOf(para);
          expect(m.relocated).toMatchObject({ source: otherPath, start_offset: at, end_offset: at + para.length });
          const s = await col.verify(stayed!, given);
          expect(s.verdict).toBe("drifted");
          expect(s.relocated).toEqual({ start_offset: client.indexOf(para), end_offset: client.indexOf(para) + para.length });
        }

        // Both copies now sit in the same surroundings: nothing tells which is the cited one, so neither is named.
        writeFileSync(otherPath, other + cleanup + "\n" + other + cleanup);
        await col.ingest([folder]);
        const m = await col.verify(moved!, { originalText: para });
        expect(m.verdict).toBe("drifted");
        expect(m.relocated).toBeUndefined();
        expect(m.detail).toMatch(/occurs at several places .* so none is named as where it went/);
      } finally {
        await col.close();
      }
    });

    it("a file moved from one root of an ingest to another is a move (ingest of both roots, and update)", async () => {
      const { folder, col } = await setup(store);
      try {
        const rootA = join(folder, "a");
        const rootB = join(folder, "b");
        mkdirSync(rootB);
        writeFileSync(join(rootA, "alpha.md"), ALPHA);
        writeFileSync(join(rootB, "beta.md"), BETA);
        expect(await col.ingest([rootA, rootB])).toMatchObject({ indexed: 2 });
        const alpha = await cite(col, "quokkas rottnest");

        renameSync(join(rootA, "alpha.md"), join(rootB, "alpha.md"));
        expect(await col.ingest([rootA, rootB])).toMatchObject({ moved: 1, indexed: 0, removed: 0, chunks_written: 0 });
        const there = await cite(col, "quokkas rottnest");
        expect(there.citation).toMatchObject({ document_id: alpha.citation.document_id, chunk_id: alpha.citation.chunk_id, source: join(rootB, "alpha.md") });
        expect((await col.verify(alpha.citation)).relocated?.source).toBe(join(rootB, "alpha.md"));

        // And back, by `update` (the recorded roots, walked in one run).
        renameSync(join(rootB, "alpha.md"), join(rootA, "alpha.md"));
        expect(await col.update()).toMatchObject({ moved: 1, indexed: 0, removed: 0 });
        expect((await cite(col, "quokkas rottnest")).citation).toMatchObject({ document_id: alpha.citation.document_id, source: join(rootA, "alpha.md") });
      } finally {
        await col.close();
      }
    });

    it("a rename with a small edit keeps its document id and its unchanged chunks' ids; ties and merges pair nothing (ADR 0037)", async () => {
      const { folder, col } = await setup(store);
      const small = { chunkSize: 200, chunkOverlap: 0 };
      const section = (name: string, words: string): string => `## ${name}\n\n${words} ${"and more words about it ".repeat(5)}\n\n`;
      const guide = `# Guide\n\n${section("Install", "Install the package with npm")}${section("Configure", "Configure the origin")}${section("Run", "Run the server")}${section("Stop", "Stop it gracefully")}`;
      try {
        writeFileSync(join(folder, "guide.md"), guide);
        writeFileSync(join(folder, "gamma.md"), GAMMA);
        await col.ingest([folder], small);
        const install = await cite(col, "install package npm");
        const stop = await cite(col, "stop gracefully");
        const chunksBefore = (await col.listDocuments()).documents.find((d) => d.source === join(folder, "guide.md"))!;

        // Renamed, and one word of its last section edited.
        rmSync(join(folder, "guide.md"));
        writeFileSync(join(folder, "handbook.md"), guide.replace("gracefully", "carefully"));
        expect(await col.ingest([folder], small)).toMatchObject({ moved: 1, indexed: 0, removed: 0 });
        const after = await cite(col, "install package npm");
        expect(after.citation).toMatchObject({ document_id: install.citation.document_id, chunk_id: install.citation.chunk_id, source: join(folder, "handbook.md") });
        expect(chunksBefore.document_id).toBe(install.citation.document_id);
        // The citation of an unchanged chunk follows the document; the edited one's text is gone.
        expect((await col.verify(install.citation)).relocated).toMatchObject({ document_id: install.citation.document_id, source: join(folder, "handbook.md") });
        const edited = await col.verify(stop.citation);
        expect(edited.verdict).toBe("drifted");
        expect(edited.relocated).toBeUndefined();
        expect(edited.detail).toContain(`moved from ${join(folder, "guide.md")} to ${join(folder, "handbook.md")}`);
        // Edited again in place: still the same document, still followed from its first path.
        writeFileSync(join(folder, "handbook.md"), guide.replace("gracefully", "quickly"));
        expect(await col.ingest([folder], small)).toMatchObject({ indexed: 1, moved: 0 });
        expect((await col.verify(install.citation)).relocated?.source).toBe(join(folder, "handbook.md"));

        // Two edited copies appear for one gone document: a tie, so neither takes its id.
        rmSync(join(folder, "handbook.md"));
        writeFileSync(join(folder, "copy-1.md"), guide.replace("gracefully", "slowly"));
        writeFileSync(join(folder, "copy-2.md"), guide.replace("gracefully", "calmly"));
        expect(await col.ingest([folder], small)).toMatchObject({ moved: 0, indexed: 2, removed: 1 });
        const ids = new Set((await col.listDocuments()).documents.map((d) => d.document_id));
        expect(ids.has(install.citation.document_id)).toBe(false);
        // The citation still finds its text, at two places now: named, relocated to none.
        expect((await col.verify(install.citation, { originalText: install.text })).relocated).toBeUndefined();
      } finally {
        await col.close();
      }
    });

    it("two documents merged into a new file pair with nothing (ADR 0037)", async () => {
      const { folder, col } = await setup(store);
      const small = { chunkSize: 200, chunkOverlap: 0 };
      const long = (title: string, word: string): string => `# ${title}\n\n` + [1, 2, 3].map((i) => `## Part ${i}\n\n${word} part ${i} ${"filler words for the part ".repeat(5)}\n\n`).join("");
      try {
        writeFileSync(join(folder, "one.md"), long("One", "Alpaca"));
        writeFileSync(join(folder, "two.md"), long("Two", "Bison"));
        await col.ingest([folder], small);
        const one = await cite(col, "alpaca part");
        rmSync(join(folder, "one.md"));
        rmSync(join(folder, "two.md"));
        writeFileSync(join(folder, "both.md"), long("One", "Alpaca") + long("Two", "Bison"));
        expect(await col.ingest([folder], small)).toMatchObject({ moved: 0, indexed: 1, removed: 2 });
        expect((await cite(col, "alpaca part")).citation.document_id).not.toBe(one.citation.document_id);
        expect((await col.verify(one.citation)).relocated?.source).toBe(join(folder, "both.md"));
      } finally {
        await col.close();
      }
    });

    it("a paragraph moved out of a file full of near copies of it is found where it went: the cited file's own matches do not crowd out the others", async () => {
      const { folder, col } = await setup(store);
      try {
        // A long paragraph, and a guide of many sections each holding it with its last stop changed (near copies:
        // the same terms, so they are the best lexical matches for it, and every one of them is the cited document's).
        const sentence = (i: number) => `Sentence ${i} tells the reader how the pool, the agent and the dispatcher share connection ${i} among requests. `;
        const para = Array.from({ length: 12 }, (_, i) => sentence(i)).join("").trimEnd();
        const near = para.slice(0, -1) + ";";
        const sections = Array.from({ length: 30 }, (_, i) => `## Step ${i}\n\n${near}\n\n`).join("");
        const guidePath = join(folder, "guide.md");
        const notesPath = join(folder, "notes.md");
        const notesStart = "# Notes\n\nPelicans carry fish in their throat pouches, wrote the naturalist, and more besides. ";
        writeFileSync(guidePath, `# Guide\n\n${sections}## The one\n\n${para}\n`);
        writeFileSync(notesPath, `${notesStart}\n`);
        await col.ingest([folder]);
        const documentId = (await cite(col, "step dispatcher")).citation.document_id;
        const [occurrence] = (await col.verifyQuote(para, { documentId })).occurrences;
        expect(occurrence).toBeDefined();

        // The paragraph cut from the guide and pasted into the notes' first paragraph (no chunk of the notes is it).
        writeFileSync(guidePath, `# Guide\n\n${sections}`);
        writeFileSync(notesPath, `${notesStart}${para}\n`);
        await col.ingest([folder]);
        for (const given of [{ originalText: para }, {}]) {
          const v = await col.verify(occurrence!.citation, given);
          expect(v.verdict).toBe("drifted");
          expect(v.relocated).toMatchObject({ source: notesPath, start_offset: notesStart.length, end_offset: notesStart.length + para.length });
        }
      } finally {
        await col.close();
      }
    });

    it("a file merged after another that opens with the same header: its header's citation follows its own copy, not the one now at its offsets", async () => {
      const { folder, col } = await setup(store);
      try {
        // Sections long enough to be a chunk each, so the merged file mostly is the long file's chunks (a rename with edits).
        const header = '<h1 align="center">Fastify</h1>';
        const section = (i: number) =>
          `## Part ${i}\n\n` + Array.from({ length: 11 }, (_, j) => `Part ${i} sentence ${j} explains how hooks ${i}, decorators and plugins fit together. `).join("") + "\n\n";
        const long = `${header}\n\n# Long\n\n` + Array.from({ length: 6 }, (_, i) => section(i)).join("");
        const short = `${header}\n\n# Short\n\nPelicans carry fish in their throat pouches.\n`;
        writeFileSync(join(folder, "long.md"), long);
        writeFileSync(join(folder, "short.md"), short);
        await col.ingest([folder]);
        const documentId = (await cite(col, "hooks decorators plugins")).citation.document_id;
        const [occurrence] = (await col.verifyQuote(header, { documentId })).occurrences;
        expect(occurrence?.citation).toMatchObject({ start_offset: 0, source: join(folder, "long.md") });

        // Both merged into one new file, the short one first: the long one's header is now second.
        const mergedPath = join(folder, "short-merged.md");
        rmSync(join(folder, "long.md"));
        rmSync(join(folder, "short.md"));
        writeFileSync(mergedPath, `${short}\n\n${long}`);
        expect(await col.ingest([folder])).toMatchObject({ moved: 1 });
        expect((await cite(col, "hooks decorators plugins")).citation.document_id).toBe(documentId);

        const at = short.length + 2;
        for (const given of [{ originalText: header }, {}]) {
          const v = await col.verify(occurrence!.citation, given);
          expect(v.verdict).toBe("drifted");
          expect(v.relocated).toMatchObject({ source: mergedPath, start_offset: at, end_offset: at + header.length });
        }
      } finally {
        await col.close();
      }
    });

    it("a citation alone (no text) of a removed file finds its text in another file through the kept history", async () => {
      const { folder, col } = await setup(store);
      try {
        writeFileSync(join(folder, "beta.md"), BETA);
        writeFileSync(join(folder, "gamma.md"), GAMMA);
        await col.ingest([folder]);
        const beta = await cite(col, "pelicans pouches");
        // Beta's text pasted after other words into another file (its chunk there has another hash), beta.md deleted.
        writeFileSync(join(folder, "merged.md"), `# Merged\n\nSome words first.\n\n${BETA}`);
        rmSync(join(folder, "beta.md"));
        await col.ingest([folder]);
        // Only the removed document's kept version still holds the cited text.
        const v = await col.verify(beta.citation, {});
        expect(v.verdict).toBe("drifted");
        const at = `# Merged\n\nSome words first.\n\n`.length;
        expect(v.relocated).toMatchObject({ source: join(folder, "merged.md"), start_offset: at, end_offset: at + beta.text.length });
        expect(v.as_cited).toMatchObject({ text: beta.text, version: 1 });
      } finally {
        await col.close();
      }
    });
  });
}

/**
 * Filters apply inside the query: every returned hit matches, and matching
 * documents ranked below many non-matching ones are still found.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type Collection } from "../src/collection/index.js";
import { parseFilters, toChunkFilter } from "../src/retrieve/filters.js";
import { compileChunkFilter } from "../src/store/sqlite/filter-sql.js";
import { tempDir } from "./support/cli.js";
import { makePdf } from "./support/pdf-fixtures.js";

let work: { dir: string; cleanup: () => void };
let col: Collection;

beforeAll(async () => {
  work = tempDir("grk-filter-");
  const docs = join(work.dir, "docs");
  mkdirSync(join(docs, "guides", "deep"), { recursive: true });
  mkdirSync(join(docs, "notes"));
  // 30 strong matches outside guides/, one weak match inside: a post-hoc trim of a top-10 would lose it.
  for (let i = 0; i < 30; i++) writeFileSync(join(docs, "notes", `n${i}.md`), `# Note ${i}\n\nfirewall firewall firewall rules ${i}\n`);
  writeFileSync(
    join(docs, "guides", "deep", "security.md"),
    "---\ntitle: Hardening\ntags: [security, ops]\nauthor: Ada\n---\n# Hardening\n\nA long text about many things, where the firewall is mentioned once among other words like kernels and patches and audits.\n",
  );
  writeFileSync(join(docs, "guides", "plain.txt"), "The firewall guide in plain text.\n");
  writeFileSync(join(docs, "guides", "manual.pdf"), await makePdf([["Firewall manual for appliances"]]));
  col = await openCollection({ indexDir: join(work.dir, "idx"), create: true });
  expect((await col.ingest([docs])).failed).toEqual([]);
});
afterAll(async () => {
  await col.close();
  work.cleanup();
});

const sources = async (filters: string[], topK = 10) =>
  (await col.search("firewall", { filters, topK })).map((h) => h.citation.source.slice(work.dir.length + 6));

describe("search filters", () => {
  it("path glob and prefix", async () => {
    expect(await sources(["path=guides/**"])).toEqual(expect.arrayContaining(["guides/deep/security.md", "guides/plain.txt", "guides/manual.pdf"]));
    expect((await sources(["path=guides/**"])).length).toBe(3);
    expect(await sources(["path=**/*.md", "path^=guides/"])).toEqual(["guides/deep/security.md"]);
  });

  it("class and extension", async () => {
    expect(await sources(["class=extracted"])).toEqual(["guides/manual.pdf"]);
    expect(await sources(["ext=txt"])).toEqual(["guides/plain.txt"]);
    expect(await sources(["ext=.PDF"])).toEqual(["guides/manual.pdf"]);
  });

  it("front-matter tags and fields", async () => {
    expect(await sources(["tag=security"])).toEqual(["guides/deep/security.md"]);
    expect(await sources(["tag=missing"])).toEqual([]);
    expect(await sources(["author=Ada", "title=Hardening"])).toEqual(["guides/deep/security.md"]);
  });

  it("a key that is neither built in nor any document's field is refused, naming the keys and the near one", async () => {
    const err = await col.search("firewall", { filters: ["pat=guides/**"] }).then(
      () => undefined,
      (e: unknown) => e as { code: string; message: string },
    );
    expect(err?.code).toBe("INVALID_FILTER");
    expect(err?.message).toContain("Unknown filter key 'pat'");
    expect(err?.message).toContain("Did you mean 'path'?");
    expect(err?.message).toContain("Keys: path, class, ext, tag, lang, symbol, ingested (built in); author, tags, title (front matter).");
    await expect(col.search("firewall", { filters: ["autor=Ada"] })).rejects.toThrow(/Did you mean 'author'\?/);
  });

  it("ingest date range", async () => {
    expect((await sources(["ingested>=2000-01-01"], 50)).length).toBe(33);
    expect(await sources(["ingested<2000-01-01"])).toEqual([]);
  });

  it("rejects malformed filters with INVALID_FILTER", () => {
    for (const bad of ["path", "=x", "class=binary", "ingested=2020-01-01", "ingested>=yesterday", "tag>=x", "title^=x", "tag="]) {
      expect(() => parseFilters([bad]), bad).toThrow(expect.objectContaining({ code: "INVALID_FILTER" }));
    }
  });
});

describe("the store's filter contract", () => {
  it("is parsed, typed clauses a second backend can compile without reading SQLite code", () => {
    const filter = toChunkFilter(
      parseFilters(["path=guides/**", "path^=docs/", "class=extracted", "ext=MD", "ingested>=2026-01-02", "tag=ops", "author=Ann"]),
    );
    expect(filter).toEqual({
      clauses: [
        { kind: "path_glob", glob: "guides/**" },
        { kind: "path_prefix", prefix: "docs/" },
        { kind: "class", sourceClass: "extracted" },
        { kind: "ext", ext: ".md" },
        { kind: "ingested", op: ">=", at: "2026-01-02T00:00:00.000Z" },
        { kind: "tag", value: "ops" },
        { kind: "metadata", field: "author", value: "Ann" },
      ],
    });
    expect(toChunkFilter([])).toBeUndefined();
    // An absolute path (as the CLI prints sources) is matched against the absolute source.
    expect(toChunkFilter(parseFilters(["path=/srv/docs/**", "path^=/srv/docs/guides"]))?.clauses).toEqual([
      { kind: "path_glob", glob: "/srv/docs/**", absolute: true },
      { kind: "path_prefix", prefix: "/srv/docs/guides", absolute: true },
    ]);
  });

  it("compiles in the SQLite backend with every value bound, never spliced", () => {
    const where = compileChunkFilter({ clauses: [{ kind: "tag", value: "x' OR 1=1 --" }, { kind: "path_glob", glob: "a/**" }] });
    expect(where.sql).not.toContain("OR 1=1");
    expect(where.params).toEqual(["x' OR 1=1 --", "x' OR 1=1 --", "a/**"]);
    expect(() => compileChunkFilter({ clauses: [{ kind: "metadata", field: `a"]') OR 1`, value: "v" }] })).toThrow(/unchecked metadata field/);
  });
});

/**
 * Every command acts on the index dir and store it is given, and on nothing else
 * (issue 25 #1: `grk collections delete NAME --index-dir DIR` deleted `./.groundkit/NAME`,
 * because the `collections` group took `--index-dir` for itself). Each command runs
 * against a non-default index dir, and the collection commands against a PostgreSQL
 * config, in a folder whose default `.groundkit` holds a collection of the same name:
 * the command's output must come from the one named, and the default folder must be
 * left byte for byte as it was. Also `collections delete`'s confirmation and the
 * "did you mean" of a mistyped collection name (issue 29).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectionsCommand } from "../src/cli/collections.js";
import { passOptionsToSubcommands } from "../src/cli/subcommand-options.js";
import { CLI, grk, tempDir } from "./support/cli.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";

let work: { dir: string; cleanup: () => void };

/** Every file under `dir` with its size, mtime and content hash: any change to the folder shows. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const s = statSync(p);
        out[p] = `${s.size} ${s.mtimeMs} ${createHash("sha256").update(readFileSync(p)).digest("hex")}`;
      }
    }
  };
  walk(dir);
  return out;
}

const run = (args: string[], env?: Record<string, string>) => grk(args, { cwd: work.dir, ...(env ? { env } : {}) });

function ok(args: string[], env?: Record<string, string>): string {
  const r = run(args, env);
  expect(r.code, `grk ${args.join(" ")}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

beforeAll(() => {
  work = tempDir("grk-subopts-");
  for (const [folder, file, text] of [
    ["mine", "alpha.md", "# Alpha\n\nAlpha lives in the default index folder.\n"],
    ["theirs", "bravo.md", "# Bravo\n\nBravo lives in the other index folder.\n"],
    ["more", "charlie.md", "# Charlie\n\nCharlie arrives later.\n"],
  ] as const) {
    mkdirSync(join(work.dir, folder));
    writeFileSync(join(work.dir, folder, file), text);
  }
  // The same collection names in the default folder and in `other`.
  for (const name of ["c", "only"]) {
    ok(["ingest", "mine", "--collection", name, "--no-progress"]);
    ok(["ingest", "theirs", "--collection", name, "--index-dir", "other", "--no-progress"]);
  }
});
afterAll(() => work?.cleanup());

describe("options given to a command group reach its subcommand", () => {
  /** The `collections` group as main.ts builds it, each subcommand's action replaced by one that records its flags. */
  function program(): { root: Command; seen: Map<string, Record<string, unknown>> } {
    const root = new Command("grk").exitOverride();
    root.addCommand(collectionsCommand().exitOverride());
    passOptionsToSubcommands(root);
    const seen = new Map<string, Record<string, unknown>>();
    for (const sub of root.commands[0]!.commands) {
      sub.exitOverride().action((...args: unknown[]) => {
        seen.set(sub.name(), (args[args.length - 1] as Command).opts());
      });
    }
    return { root, seen };
  }

  const operands: Record<string, string[]> = { delete: ["x"], copy: ["--from", "sqlite:a", "--to", "sqlite:b"] };

  it("after the subcommand's name and before it, for every subcommand of `collections`", async () => {
    const names = program().root.commands[0]!.commands.map((c) => c.name());
    expect(names.sort()).toEqual(Object.keys(operands).sort());
    for (const name of names) {
      const given = ["--index-dir", "D", "--collection", "C", "--config", "F.json", "--json"];
      for (const argv of [
        ["collections", name, ...operands[name]!, ...given],
        ["collections", ...given, name, ...operands[name]!],
      ]) {
        const { root, seen } = program();
        await root.parseAsync(argv, { from: "user" });
        expect(seen.get(name), argv.join(" ")).toMatchObject({ indexDir: "D", collection: "C", config: "F.json", json: true });
      }
    }
  });
});

describe("every command acts on the index dir it is given, and leaves the default one alone", () => {
  let before: Record<string, string>;
  let hits: { results: Array<{ chunk_id: string; document_id: string; citation: { source: string } }> };
  const other = ["--index-dir", "other", "--collection", "c"];

  beforeAll(() => {
    before = fingerprint(join(work.dir, ".groundkit"));
    hits = JSON.parse(ok(["search", "lives", "--json", ...other])) as typeof hits;
    writeFileSync(join(work.dir, "hits.json"), JSON.stringify(hits));
  });

  const cases: Array<[string, () => void]> = [
    ["search", () => expect(hits.results.map((h) => h.citation.source)).toEqual([join(work.dir, "theirs", "bravo.md")])],
    ["ls", () => expect(ok(["ls", ...other])).toContain("bravo.md")],
    ["status", () => expect(JSON.parse(ok(["status", "--json", ...other]))).toMatchObject({ documents: 1, path: join(work.dir, "other", "c.sqlite3") })],
    ["doctor", () => expect(ok(["doctor", ...other])).toContain(join(work.dir, "other"))],
    ["show", () => expect(ok(["show", hits.results[0]!.chunk_id, ...other])).toContain("Bravo")],
    ["get", () => expect(ok(["get", hits.results[0]!.document_id, ...other])).toContain("Bravo")],
    ["verify", () => expect(JSON.parse(ok(["verify", "hits.json", "--json", ...other]))).toMatchObject({ verdict: "verified" })],
    ["update", () => expect(JSON.parse(ok(["update", "--json", ...other]))).toMatchObject({ collections: [{ collection: "c", unchanged: 1 }] })],
    ["ingest", () => expect(JSON.parse(ok(["ingest", "more", "--json", "--no-progress", ...other]))).toMatchObject({ indexed: 1 })],
    ["rm", () => expect(ok(["rm", "more/charlie.md", "--json", ...other])).toContain("charlie.md")],
    ["collections", () => expect(JSON.parse(ok(["collections", "--json", "--index-dir", "other"])).collections.map((c: { name: string }) => c.name)).toEqual(["c", "only"])],
    [
      "collections copy",
      () => {
        ok(["collections", "copy", "--from", "sqlite:c", "--to", "sqlite:copied", "--index-dir", "other"]);
        expect(existsSync(join(work.dir, "other", "copied.sqlite3"))).toBe(true);
      },
    ],
    [
      "collections delete",
      () => {
        expect(ok(["collections", "delete", "only", "--index-dir", "other", "--yes"])).toContain("deleted collection only");
        expect(existsSync(join(work.dir, "other", "only.sqlite3"))).toBe(false);
      },
    ],
  ];
  for (const [name, check] of cases) {
    it(name, () => {
      check();
      expect(fingerprint(join(work.dir, ".groundkit"))).toEqual(before);
    });
  }
});

describe("collections delete asks first", () => {
  it("refuses without a terminal unless --yes is given, and deletes nothing", () => {
    const r = run(["collections", "delete", "c"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error[USAGE]");
    expect(r.stderr).toContain("--yes");
    expect(existsSync(join(work.dir, ".groundkit", "c.sqlite3"))).toBe(true);
  });

  it("at a terminal, deletes only on a yes typed there", () => {
    // `script` gives the command a pseudo-terminal; the answer is typed into it.
    const viaTerminal = (answer: string): string => {
      const r = spawnSync("script", ["-qec", `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} collections delete only`, "/dev/null"], {
        cwd: work.dir,
        input: answer,
        encoding: "utf8",
      });
      return r.stdout;
    };
    const no = viaTerminal("n\n");
    expect(no).toContain("Delete collection 'only' (1 documents)");
    expect(existsSync(join(work.dir, ".groundkit", "only.sqlite3"))).toBe(true);
    const yes = viaTerminal("y\n");
    expect(yes).toContain("deleted collection only");
    expect(existsSync(join(work.dir, ".groundkit", "only.sqlite3"))).toBe(false);
  });

  it("a mistyped collection name gets the nearest one as a hint", () => {
    const r = run(["status", "--collection", "cc"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("error[COLLECTION_NOT_FOUND]");
    expect(r.stderr).toContain("hint: Did you mean collection 'c'?");
  });
});

describe("the collection commands act on the PostgreSQL store a config names, and leave SQLite alone", () => {
  let pg: TestPostgres;
  let env: Record<string, string>;
  beforeAll(async () => {
    pg = await startPostgres();
    env = { GRK_SUBOPTS_PG_URL: pg.url };
    writeFileSync(join(work.dir, "pg.json"), JSON.stringify({ store: { kind: "postgres", url_env: "GRK_SUBOPTS_PG_URL", schema: "subopts" } }));
    ok(["ingest", "theirs", "--collection", "pgc", "--config", "pg.json", "--no-progress"], env);
    ok(["ingest", "theirs", "--collection", "pgd", "--config", "pg.json", "--no-progress"], env);
    ok(["ingest", "mine", "--collection", "pgc", "--no-progress"]);
  });
  afterAll(async () => {
    await pg?.stop().catch(() => {});
  });

  const pgNames = () => (JSON.parse(ok(["collections", "--json", "--config", "pg.json"], env)).collections as Array<{ name: string }>).map((c) => c.name);

  it("list, copy, delete and status on PostgreSQL, the SQLite folder unchanged", () => {
    const before = fingerprint(join(work.dir, ".groundkit"));
    expect(pgNames()).toEqual(["pgc", "pgd"]);
    expect(JSON.parse(ok(["status", "--json", "--collection", "pgc", "--config", "pg.json"], env))).toMatchObject({
      path: expect.stringContaining("postgres://"),
    });
    const copied = ok(["collections", "copy", "--from", "postgres:pgd", "--to", "postgres:pge", "--json", "--config", "pg.json"], env);
    expect(JSON.parse(copied)).toMatchObject({ documents: 1 });
    expect(ok(["collections", "delete", "pgc", "--config", "pg.json", "--yes"], env)).toContain("deleted collection pgc");
    expect(pgNames()).toEqual(["pgd", "pge"]);
    expect(ok(["collections", "--config", "pg.json", "delete", "pge", "--yes"], env)).toContain("deleted collection pge");
    expect(pgNames()).toEqual(["pgd"]);
    expect(fingerprint(join(work.dir, ".groundkit"))).toEqual(before);
    expect(existsSync(join(work.dir, ".groundkit", "pgc.sqlite3"))).toBe(true);
  });
});

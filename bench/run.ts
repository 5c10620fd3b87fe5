/**
 * `npm run bench [-- options]`: run the benchmark suite, write
 * `<out>/<name>.json` and `<out>/<name>.md`, print the Markdown summary.
 * The options (also printed by `--help`):
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseOptions, usage } from "./cli-options.js";
import { runPostgresStoreBench } from "./postgres-store.js";
import { renderMarkdown } from "./report.js";
import { runSuite, SIZES, STAGES, type Stage } from "./suite.js";
import { childRunner, childScript, inProcessRunner } from "./tasks.js";

const HELP = `usage: npm run bench [-- options]
  --size 5k|10k|100k|1m   corpus size (5k = 5,000 documents; others count chunks). Default 5k.
  --only a,b,…            stages: ingest,query,verify,peer,vectors,dense,open,startup,mcp (default: all)
  --out DIR               results folder (default bench/results)
  --name NAME             results file name (default: the size, plus the stages when --only is given)
  --dense                 the full dense stage: a collection of --dense-chunks (default 10,000) chunks embedded by the local model
  --dense-chunks N        chunks in the dense collection (default 300 without --dense)
  --vectors a,b,…         vector-search sizes (default per size, e.g. 20000,100000)
  --keep                  keep the scratch folder (corpus and indexes) and print its path
  --store postgres        instead: the PostgreSQL store beside SQLite (its own options: --store postgres --help)
`;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const storeAt = argv.indexOf("--store");
  if (storeAt >= 0) {
    const kind = argv[storeAt + 1];
    if (kind !== "postgres" && kind !== "sqlite") usage("--store must be sqlite or postgres");
    // The SQLite store is what the suite measures; postgres runs both stores side by side.
    if (kind === "postgres") {
      return runPostgresStoreBench([...argv.slice(0, storeAt), ...argv.slice(storeAt + 2)]);
    }
    argv.splice(storeAt, 2);
  }
  const { values } = parseOptions({
    args: argv,
    options: {
      size: { type: "string", default: "5k" },
      only: { type: "string" },
      out: { type: "string", default: "bench/results" },
      name: { type: "string" },
      dense: { type: "boolean", default: false },
      "dense-chunks": { type: "string" },
      vectors: { type: "string" },
      keep: { type: "boolean", default: false },
    },
    strict: true,
  }, HELP);
  const base = SIZES[values.size!];
  if (!base) usage(`--size must be one of ${Object.keys(SIZES).join(", ")}`);
  const stages = new Set<Stage>(
    values.only
      ? values.only.split(",").map((s) => {
          const t = s.trim() as Stage;
          if (!STAGES.includes(t)) usage(`unknown stage '${s}' (stages: ${STAGES.join(", ")})`);
          return t;
        })
      : STAGES,
  );
  const preset = { ...base };
  if (values.dense) preset.denseChunks = 10_000;
  if (values["dense-chunks"]) {
    const n = Number(values["dense-chunks"]);
    if (!Number.isInteger(n) || n < 1) usage("--dense-chunks must be a positive integer");
    preset.denseChunks = n;
  }
  if (values.vectors) {
    const sizes = values.vectors.split(",").map(Number);
    if (sizes.some((n) => !Number.isInteger(n) || n < 1)) usage("--vectors takes positive integers, e.g. 20000,100000");
    preset.vectors = sizes;
  }
  const script = childScript();
  const runner = script ? childRunner(script) : inProcessRunner;
  const workDir = mkdtempSync(join(tmpdir(), "grk-bench-"));
  // A partial run gets its own name so it never overwrites a full run's results.
  const name = values.name ?? (values.only ? `${preset.name}-${[...stages].join("-")}` : preset.name);
  const outDir = resolve(values.out!);
  console.error(`bench: size ${preset.name}, stages ${[...stages].join(",")}, scratch ${workDir}`);
  try {
    const results = await runSuite({ preset, stages, workDir, runner, log: (l) => console.error(l) });
    results.name = name;
    mkdirSync(outDir, { recursive: true });
    const md = `# Benchmark: ${name}\n\n${renderMarkdown(results, 2)}`;
    writeFileSync(join(outDir, `${name}.json`), JSON.stringify(results, null, 2) + "\n");
    writeFileSync(join(outDir, `${name}.md`), md);
    console.log(md);
    console.error(`bench: wrote ${join(outDir, `${name}.json`)} and ${name}.md`);
    if (results.errors.length > 0) process.exitCode = 1;
  } finally {
    if (values.keep) console.error(`bench: kept ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

await main();

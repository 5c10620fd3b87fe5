/**
 * `npm run tools:build && node .tools-build/bench/office-extraction.js [options] [FILE|FOLDER…]` (HELP below):
 * extraction speed of office documents and e-books through the bounded
 * extraction worker, as ingest and verification run it (docs/decisions/0022-office-documents.md).
 * Every .docx .pptx .xlsx .odt .odp .ods .epub file of the folders is extracted
 * `--runs` times; per file the median time, MB/s of package bytes and code
 * points out; overall files/s and MB/s over the medians, and the process's peak
 * RSS (worker included). Writes `<out>/office-extraction.json` and `.md`.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { codePointLength } from "../src/core/text.js";
import { getExtractorRegistry } from "../src/extract/registry.js";
import { integerOption, parseOptions, usage } from "./cli-options.js";

const OFFICE = new Set([".docx", ".pptx", ".xlsx", ".odt", ".odp", ".ods", ".epub"]);

const HELP = `usage: node .tools-build/bench/office-extraction.js [options] [FILE|FOLDER…]
  FILE|FOLDER…  office documents and e-books (${[...OFFICE].join(" ")}) to extract, or folders of them
                (default test/fixtures/office)
  --runs N      extractions per file, the median kept (default 3)
  --out DIR     results folder (default bench/results)
`;

interface FileResult {
  file: string;
  bytes: number;
  median_ms: number;
  mb_per_s: number;
  code_points: number;
}

function isOffice(path: string): boolean {
  return OFFICE.has(extname(path).toLowerCase());
}

/** The office files a command-line argument names: itself, or those in the folder it is; anything else is a usage line. */
function filesOf(arg: string): string[] {
  const path = resolve(arg);
  let stat;
  try {
    stat = statSync(path);
  } catch {
    usage(`${arg}: no such file or folder`);
  }
  if (stat.isDirectory()) {
    return readdirSync(path)
      .map((name) => join(path, name))
      .filter((file) => isOffice(file) && statSync(file).isFile())
      .sort();
  }
  if (!isOffice(path)) usage(`${arg} is not one of ${[...OFFICE].join(" ")}`);
  return [path];
}

async function main(): Promise<void> {
  const { values, positionals } = parseOptions({
    options: { runs: { type: "string", default: "3" }, out: { type: "string", default: "bench/results" } },
    allowPositionals: true,
  }, HELP);
  const runs = integerOption("runs", values.runs!);
  const inputs = positionals.length ? positionals : ["test/fixtures/office"];
  const files = inputs.flatMap(filesOf);
  if (files.length === 0) usage(`no ${[...OFFICE].join(" ")} file in ${inputs.join(", ")}`);
  const office = (await getExtractorRegistry()).get("office");
  if (!office) throw new Error("the office extractor is unavailable");
  const results: FileResult[] = [];
  for (const path of files) {
    const bytes = new Uint8Array(readFileSync(path));
    const times: number[] = [];
    let codePoints = 0;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const out = await office.extract(bytes, undefined, { label: path });
      times.push(performance.now() - started);
      codePoints = codePointLength(out.text);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    results.push({ file: path, bytes: bytes.length, median_ms: median, mb_per_s: bytes.length / 1e6 / (median / 1000), code_points: codePoints });
  }
  const totalMs = results.reduce((s, r) => s + r.median_ms, 0);
  const totalBytes = results.reduce((s, r) => s + r.bytes, 0);
  const summary = {
    extractor: office.identity,
    node: process.version,
    runs,
    files: results.length,
    files_per_s: results.length / (totalMs / 1000),
    mb_per_s: totalBytes / 1e6 / (totalMs / 1000),
    peak_rss_mb: process.resourceUsage().maxRSS / 1024,
    results,
  };
  const lines = [
    `# Office extraction (${office.identity}, ${process.version}, median of ${runs})`,
    "",
    "| file | MB | ms | MB/s | code points out |",
    "|---|---:|---:|---:|---:|",
    ...results.map((r) => `| ${r.file.split("/").pop()} | ${(r.bytes / 1e6).toFixed(2)} | ${r.median_ms.toFixed(0)} | ${r.mb_per_s.toFixed(2)} | ${r.code_points} |`),
    "",
    `${summary.files} files: ${summary.files_per_s.toFixed(1)} files/s, ${summary.mb_per_s.toFixed(2)} MB/s, peak RSS ${summary.peak_rss_mb.toFixed(0)} MB.`,
  ];
  mkdirSync(values.out!, { recursive: true });
  writeFileSync(join(values.out!, "office-extraction.json"), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(join(values.out!, "office-extraction.md"), `${lines.join("\n")}\n`);
  console.log(lines.join("\n"));
}

await main();

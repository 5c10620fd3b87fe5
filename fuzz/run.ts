/**
 * `npm run fuzz -- [--cases N] [--seed S] [--json] [--out FILE] [--case I]… [--replay FILE] [--no-shrink] [--store sqlite|postgres]`
 *
 * The citation-integrity fuzz. Prints counts per mutation kind and per
 * verdict, the expected × actual verdict matrix, the time per case, and every
 * failure (shrunk to a minimal case); exits 1 on any false `verified`, any
 * `drifted` where the source could not be read, any verdict without a detail,
 * or any other expected/actual mismatch. The same seed replays the same cases.
 */
import { readFileSync } from "node:fs";
import type { CaseSpec } from "./case-spec.js";
import { runFuzz, type FuzzReport } from "./fuzz.js";
import { MUTATION_KINDS } from "./mutations.js";
import { parseStoreKind, type StoreKind } from "./store-target.js";
import { emitReport, runIfMain } from "./tool-cli.js";

interface Args {
  cases: number;
  seed: number;
  json: boolean;
  out?: string | undefined;
  only: number[];
  replay?: string | undefined;
  shrink: boolean;
  tmp?: string | undefined;
  hangTimeoutMs: number;
  store: StoreKind;
}

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: fuzz [--cases N] [--seed S] [--json] [--out FILE] [--case I]... [--replay SPEC.json] [--no-shrink] [--tmp DIR] [--hang-timeout MS] [--store sqlite|postgres]\n`);
  process.exit(2);
}

function intArg(name: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (value === undefined || !Number.isSafeInteger(n) || n < min) usage(`${name} needs an integer >= ${min}`);
  return n;
}

/** Parse the command line (exits 2 on a usage error). */
export function parseArgs(argv: string[]): Args {
  const args: Args = { cases: 300, seed: 1, json: false, only: [], shrink: true, hangTimeoutMs: 10_000, store: "sqlite" };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = (): string | undefined => argv[++i];
    if (a === "--cases") args.cases = intArg(a, next(), 1);
    else if (a === "--seed") args.seed = intArg(a, next(), 0) >>> 0;
    else if (a === "--json") args.json = true;
    else if (a === "--out") args.out = next() ?? usage("--out needs a file");
    else if (a === "--case") args.only.push(intArg(a, next(), 0));
    else if (a === "--replay") args.replay = next() ?? usage("--replay needs a file");
    else if (a === "--no-shrink") args.shrink = false;
    else if (a === "--tmp") args.tmp = next() ?? usage("--tmp needs a directory");
    else if (a === "--hang-timeout") args.hangTimeoutMs = intArg(a, next(), 100);
    else if (a === "--store") args.store = parseStoreKind(next(), usage);
    else usage(`unknown argument ${a}`);
  }
  return args;
}

function pad(s: string | number, n: number): string {
  return String(s).padStart(n);
}

/** The human-readable summary. */
export function renderText(r: FuzzReport, command: string): string {
  const out: string[] = [];
  out.push(`citation-integrity fuzz: ${r.cases} cases, seed ${r.seed}, store ${r.store}, ${r.citations} citations verified`);
  out.push(`time: ${(r.duration_ms / 1000).toFixed(1)} s, ${r.ms_per_case} ms per case (node ${r.node}, ${r.platform})`);
  out.push(`read permission: ${r.permission.mode} (${r.permission.note})`);
  out.push("");
  out.push(`${"mutation kind".padEnd(20)} ${pad("cases", 6)} ${pad("skip", 5)} ${pad("cites", 6)} ${pad("verified", 9)} ${pad("drifted", 8)} ${pad("unresolv", 9)} ${pad("exc", 4)} ${pad("hang", 5)}`);
  for (const kind of MUTATION_KINDS) {
    const k = r.by_kind[kind]!;
    const v = k.verdicts;
    out.push(
      `${kind.padEnd(20)} ${pad(k.cases, 6)} ${pad(k.skipped, 5)} ${pad(k.citations, 6)} ${pad(v.verified, 9)} ${pad(v.drifted, 8)} ${pad(v.unresolvable, 9)} ${pad(v.exception, 4)} ${pad(v.hang, 5)}`,
    );
  }
  out.push("");
  out.push("verdict matrix (rows: expected, columns: actual)");
  out.push(`${"".padEnd(14)} ${pad("verified", 9)} ${pad("drifted", 8)} ${pad("unresolvable", 13)} ${pad("exception", 10)} ${pad("hang", 5)}`);
  for (const exp of ["verified", "drifted", "unresolvable"] as const) {
    const m = r.matrix[exp];
    out.push(`${exp.padEnd(14)} ${pad(m.verified, 9)} ${pad(m.drifted, 8)} ${pad(m.unresolvable, 13)} ${pad(m.exception, 10)} ${pad(m.hang, 5)}`);
  }
  out.push("");
  out.push(`by class: ${Object.entries(r.by_class).map(([c, v]) => `${c} ${v.citations}`).join(", ")}`);
  out.push(`relocation hints checked: ${r.relocations.checked} (${r.relocations.located} located, ${r.relocations.absent} rightly absent; ${r.relocations.at_predicted} exactly where the mutation moved the text)`);
  if (Object.keys(r.skipped).length) out.push(`skipped: ${Object.entries(r.skipped).map(([why, n]) => `${n} × ${why}`).join("; ")}`);
  out.push("");
  const fk = Object.entries(r.failures.by_kind).filter(([, n]) => n > 0);
  if (fk.length === 0) {
    out.push("failures: none (0 false verified, 0 drifted-where-unreadable, 0 verdicts without a detail, 0 mismatches)");
  } else {
    out.push(`FAILURES: ${r.failures.total} (${fk.map(([k, n]) => `${k} ${n}`).join(", ")})`);
    for (const c of r.failures.cases.slice(0, 20)) {
      out.push(`  case ${c.index}: ${c.kind} [${c.variant}] on ${c.target}`);
      for (const f of c.failures.slice(0, 3)) out.push(`    ${f.kind}: ${f.message}`);
    }
    for (const s of r.shrunk) {
      out.push("");
      out.push(`shrunk case ${s.index} (${s.failure}) in ${s.attempts} runs, size ${s.size_from} -> ${s.size_to}: ${s.description}`);
      for (const f of s.failures.slice(0, 3)) out.push(`  ${f.kind}: ${f.message}`);
      out.push(`  spec: ${JSON.stringify(s.spec)}`);
      out.push(`  replay: save the spec to a file and run \`npm run fuzz -- --replay FILE\`; or \`npm run fuzz -- --seed ${r.seed} --case ${s.index}\``);
    }
  }
  out.push("");
  out.push(`command: ${command}`);
  return out.join("\n");
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const replay = args.replay ? (JSON.parse(readFileSync(args.replay, "utf8")) as CaseSpec) : undefined;
  const command = `npm run fuzz -- ${process.argv.slice(2).join(" ")}`.trim();
  const tty = process.stderr.isTTY;
  const report = await runFuzz({
    cases: args.cases,
    seed: args.seed,
    only: args.only.length ? args.only : undefined,
    replay,
    shrink: args.shrink,
    tmp: args.tmp,
    hangTimeoutMs: args.hangTimeoutMs,
    store: args.store,
    onCase: (r, done, total) => {
      if (tty && (done % 25 === 0 || done === total)) process.stderr.write(`\r${done}/${total} cases`);
      if (r.failures.length > 0 && !args.json) process.stderr.write(`${tty ? "\n" : ""}case ${r.spec.index} failed: ${r.failures[0]!.kind}: ${r.failures[0]!.message}\n`);
    },
  });
  if (tty) process.stderr.write("\n");
  emitReport(report, command, args, renderText);
}

runIfMain(import.meta.url, "fuzz", main);

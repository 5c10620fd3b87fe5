/**
 * `npm run eval:claims -- [--seed S] [--json]`
 *
 * How well the model-free claim check (src/answer/claim-check.ts) tells a
 * claim its cited passage supports from one it does not. Sentences are taken
 * from the golden corpus (evals/corpus/*.md, prose only); the passage is the
 * section each comes from. Each sentence is tried as written (kept), as a
 * paraphrase (synonyms, number words for digits and back, the same quantity in
 * another unit, a dropped aside), and with one mutation of each kind that
 * applies: a number changed, a negation added or removed, a name swapped for
 * one from another document, a unit swapped within its dimension. Every
 * choice comes from a seeded generator, so a seed reproduces the run.
 *
 * Detection rate: mutated sentences the check flags. False-alarm rate: kept
 * and paraphrased sentences it flags. Each goes through the answer parser
 * (`sentence [1].`) and the same claim text grounding uses.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { claimText, parseAnswer } from "../src/answer/answer-text.js";
import { checkClaim } from "../src/answer/claim-check.js";
import { mulberry32 } from "../src/core/random.js";

export const MUTATIONS = ["number", "negation", "entity", "unit"] as const;
export type Mutation = (typeof MUTATIONS)[number];

export interface ClaimEvalReport {
  seed: number;
  sentences: number;
  kept: { n: number; flagged: number; rate: number };
  paraphrased: { n: number; flagged: number; rate: number };
  mutated: Record<Mutation, { n: number; detected: number; rate: number }>;
  detection_rate: number;
  false_alarm_rate: number;
  /** Examples of what went wrong, for reading. */
  false_alarms: Array<{ sentence: string; why: string }>;
  missed: Array<{ kind: Mutation; sentence: string }>;
}

interface Sample {
  sentence: string;
  passage: string;
  doc: string;
}

/** Prose sentences of the golden corpus with the section each is in. */
export function corpusSentences(dir: string): Sample[] {
  const out: Sample[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".md")).sort()) {
    const text = readFileSync(join(dir, file), "utf8");
    const sections = text.split(/\n(?=#{1,6} )/);
    for (const section of sections) {
      // Drop code blocks and tables: the check is for prose.
      const prose = section.replace(/```[\s\S]*?```/g, "\n\n").split("\n").filter((l) => !/^\s*(?:#|\||```)/.test(l)).join("\n");
      for (const para of prose.split(/\n\s*\n/)) {
        const flat = para.replace(/^\s*[-*]\s+/gm, "").replace(/\s+/g, " ").trim();
        for (const s of flat.split(/(?<=[.!?])\s+(?=[A-Z])/)) {
          if (s.length >= 40 && s.length <= 300 && /[.!?]$/.test(s)) out.push({ sentence: s, passage: section, doc: file });
        }
      }
    }
  }
  return out;
}

const NUMBER_WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve", "twenty", "thirty", "forty", "fifty", "sixty"];
const WORD_VALUE: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60 };
const UNIT_SWAPS: Record<string, string[]> = {
  seconds: ["minutes", "hours"], minutes: ["seconds", "hours"], hours: ["minutes", "days"], days: ["hours", "weeks"],
  weeks: ["days", "months"], months: ["weeks", "years"], years: ["months"], second: ["minute"], minute: ["second", "hour"],
  hour: ["minute", "day"], day: ["hour", "week"], week: ["day", "month"], month: ["week", "year"], year: ["month"],
  MB: ["GB", "KB"], GB: ["MB", "TB"], KB: ["MB"], TB: ["GB"], ms: ["seconds"], "%": [" percent of the time"],
};
/** Hours in one unit, for a conversion that keeps the quantity. */
const IN_HOURS: Record<string, number> = { days: 24, day: 24, weeks: 168, week: 168 };
const SYNONYMS: Array<[RegExp, string]> = [
  [/\bbefore\b/, "prior to"], [/\bafter\b/, "once"], [/\bmust\b/, "has to"], [/\buses\b/, "relies on"],
  [/\bdeleted\b/, "removed"], [/\bstarts\b/, "begins"], [/\bbig\b/, "large"], [/\bquickly\b/, "fast"],
  [/\bhelps\b/, "assists"], [/\bneeds\b/, "requires"], [/\bshows\b/, "displays"], [/\bkeeps\b/, "retains"],
  [/\bruns\b/, "executes"], [/\bwrites\b/, "records"], [/\bchecks\b/, "verifies"], [/\bgets\b/, "receives"],
];

type Rand = () => number;
const pick = <T>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;

/** A meaning-preserving rewrite, or undefined when none applies. */
function paraphrase(s: string, rand: Rand): string | undefined {
  const options: Array<() => string | undefined> = [
    () => {
      const hits = SYNONYMS.filter(([re]) => re.test(s));
      if (hits.length === 0) return undefined;
      const [re, to] = pick(rand, hits);
      return s.replace(re, to);
    },
    () => {
      const m = /(?<![\d.,:])\b(\d{1,2})\b(?![.,:]\d)/.exec(s);
      const word = m ? Object.entries(WORD_VALUE).find(([, v]) => v === Number(m[1]))?.[0] : undefined;
      return m && word ? s.slice(0, m.index) + word + s.slice(m.index + m[1]!.length) : undefined;
    },
    () => {
      const m = new RegExp(`\\b(${NUMBER_WORDS.join("|")})\\b`, "i").exec(s);
      return m ? s.slice(0, m.index) + String(WORD_VALUE[m[1]!.toLowerCase()]) + s.slice(m.index + m[1]!.length) : undefined;
    },
    () => {
      const m = new RegExp(`\\b(\\d+|${NUMBER_WORDS.join("|")}) (days?|weeks?)\\b`, "i").exec(s);
      if (!m) return undefined;
      const n = /^\d+$/.test(m[1]!) ? Number(m[1]) : WORD_VALUE[m[1]!.toLowerCase()]!;
      return s.slice(0, m.index) + `${n * IN_HOURS[m[2]!.toLowerCase()]!} hours` + s.slice(m.index + m[0].length);
    },
    () => {
      const m = /, (?:which|so that|because|and) [^,]{8,80},/.exec(s);
      return m ? s.slice(0, m.index) + s.slice(m.index + m[0].length - 1) : undefined;
    },
  ];
  // A seeded shuffle, so the paraphrase tried first varies from sentence to sentence.
  const order = [...options];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  for (const o of order) {
    const p = o();
    if (p !== undefined && p !== s) return p;
  }
  return undefined;
}

const NEGATABLE = /\b(is|are|was|were|can|must|should|will|does|do|has|have)\b(?! not\b| never\b)/;
const NEGATED = /\b(is|are|was|were|can|must|should|will|does|do|has|have) not\b|\b(?:never|cannot|no)\b|n't\b/;

/** Candidate names in a sentence: mid-sentence capitalised words, acronyms, identifiers. */
function namesIn(s: string): string[] {
  const out: string[] = [];
  for (const m of s.matchAll(/(?<=\s)[A-Z][A-Za-z0-9]*[A-Z0-9][A-Za-z0-9]*\b|(?<=\s)[A-Z][a-z]{2,}\b/g)) {
    const before = s.slice(0, m.index).trimEnd();
    if (/[.:;]$/.test(before)) continue;
    out.push(m[0]);
  }
  return out;
}

/** The sentence with one mutation of `kind`, or undefined when the kind does not apply. */
function mutate(s: string, kind: Mutation, rand: Rand, otherNames: readonly string[]): string | undefined {
  if (kind === "number") {
    const digits = [...s.matchAll(/(?<![\w.,:-])(\d+)(?![\w]|[.,:]\d)/g)];
    const words = [...s.matchAll(new RegExp(`\\b(${NUMBER_WORDS.join("|")})\\b`, "gi"))];
    const all = [...digits.map((m) => ({ m, word: false })), ...words.map((m) => ({ m, word: true }))];
    if (all.length === 0) return undefined;
    const { m, word } = pick(rand, all);
    const raw = m[1]!;
    let to: string;
    if (word) to = pick(rand, NUMBER_WORDS.filter((w) => w !== raw.toLowerCase()));
    else {
      const n = Number(raw);
      to = String(pick(rand, [n + 1, n + 3, n * 2 + 1, n * 10]));
      if (to === raw) to = String(n + 11);
    }
    return s.slice(0, m.index) + to + s.slice(m.index! + raw.length);
  }
  if (kind === "negation") {
    const neg = NEGATED.exec(s);
    if (neg) {
      if (neg[1]) return s.slice(0, neg.index) + neg[1] + s.slice(neg.index + neg[0].length);
      if (neg[0] === "never") return s.slice(0, neg.index) + "always" + s.slice(neg.index + 5);
      if (neg[0] === "cannot") return s.slice(0, neg.index) + "can" + s.slice(neg.index + 6);
      if (neg[0] === "no") return s.slice(0, neg.index) + "some" + s.slice(neg.index + 2);
      return s.slice(0, neg.index) + s.slice(neg.index + 3);
    }
    const m = NEGATABLE.exec(s);
    return m ? s.slice(0, m.index + m[0].length) + " not" + s.slice(m.index + m[0].length) : undefined;
  }
  if (kind === "entity") {
    const mine = namesIn(s);
    if (mine.length === 0) return undefined;
    const name = pick(rand, mine);
    const others = otherNames.filter((o) => o !== name && !s.includes(o));
    if (others.length === 0) return undefined;
    return s.replace(new RegExp(`\\b${name}\\b`), pick(rand, others));
  }
  const units = Object.keys(UNIT_SWAPS).filter((u) => new RegExp(`(?:\\d|\\b(?:${NUMBER_WORDS.join("|")}))[ -]?${u === "%" ? "%" : `${u}\\b`}`, "i").test(s));
  if (units.length === 0) return undefined;
  const from = pick(rand, units);
  const to = pick(rand, UNIT_SWAPS[from]!);
  return s.replace(new RegExp(`((?:\\d|\\b(?:${NUMBER_WORDS.join("|")}))[ -]?)${from === "%" ? "%" : `${from}\\b`}`, "i"), `$1${to}`);
}

/** What the grounding check says of `sentence` citing `passage`: the mismatches it names. */
function flagged(sentence: string, passage: string): string[] {
  const [parsed] = parseAnswer(`${sentence.replace(/[.!?]$/, "")} [1].`);
  if (!parsed) return [];
  return checkClaim(claimText(parsed), [passage]).map((m) => `${m.kind}: ${m.claim}`);
}

/** Run the evaluation over `dir` (the golden corpus). */
export function evaluateClaims(dir: string, seed = 1): ClaimEvalReport {
  const rand = mulberry32(seed);
  const samples = corpusSentences(dir);
  const namesByDoc = new Map<string, string[]>();
  for (const s of samples) namesByDoc.set(s.doc, [...new Set([...(namesByDoc.get(s.doc) ?? []), ...namesIn(s.sentence)])]);
  const report: ClaimEvalReport = {
    seed,
    sentences: samples.length,
    kept: { n: 0, flagged: 0, rate: 0 },
    paraphrased: { n: 0, flagged: 0, rate: 0 },
    mutated: Object.fromEntries(MUTATIONS.map((k) => [k, { n: 0, detected: 0, rate: 0 }])) as ClaimEvalReport["mutated"],
    detection_rate: 0,
    false_alarm_rate: 0,
    false_alarms: [],
    missed: [],
  };
  for (const sample of samples) {
    const kept = flagged(sample.sentence, sample.passage);
    report.kept.n++;
    if (kept.length > 0) {
      report.kept.flagged++;
      if (report.false_alarms.length < 40) report.false_alarms.push({ sentence: sample.sentence, why: kept.join("; ") });
    }
    const para = paraphrase(sample.sentence, rand);
    if (para !== undefined) {
      report.paraphrased.n++;
      const why = flagged(para, sample.passage);
      if (why.length > 0) {
        report.paraphrased.flagged++;
        if (report.false_alarms.length < 40) report.false_alarms.push({ sentence: para, why: why.join("; ") });
      }
    }
    const otherNames = [...namesByDoc.entries()].filter(([d]) => d !== sample.doc).flatMap(([, n]) => n).filter((n) => !sample.passage.includes(n));
    for (const kind of MUTATIONS) {
      const mutated = mutate(sample.sentence, kind, rand, otherNames);
      if (mutated === undefined || mutated === sample.sentence) continue;
      const stats = report.mutated[kind];
      stats.n++;
      if (flagged(mutated, sample.passage).length > 0) stats.detected++;
      else if (report.missed.length < 40) report.missed.push({ kind, sentence: mutated });
    }
  }
  const rate = (a: number, b: number): number => (b === 0 ? 0 : Number((a / b).toFixed(4)));
  report.kept.rate = rate(report.kept.flagged, report.kept.n);
  report.paraphrased.rate = rate(report.paraphrased.flagged, report.paraphrased.n);
  let n = 0;
  let d = 0;
  for (const k of MUTATIONS) {
    const s = report.mutated[k];
    s.rate = rate(s.detected, s.n);
    n += s.n;
    d += s.detected;
  }
  report.detection_rate = rate(d, n);
  report.false_alarm_rate = rate(report.kept.flagged + report.paraphrased.flagged, report.kept.n + report.paraphrased.n);
  return report;
}

/** The golden corpus next to this file (from evals/ or from .tools-build/evals/). */
export function goldenCorpusDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const up of [".", "../../evals"]) {
    const dir = join(here, up, "corpus");
    try {
      if (readdirSync(dir).some((f) => f.endsWith(".md"))) return dir;
    } catch {
      // try the next location
    }
  }
  throw new Error("evals/corpus not found");
}

export function renderClaimReport(r: ClaimEvalReport): string {
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  const lines = [
    `claim check over ${r.sentences} golden-corpus sentences, seed ${r.seed}`,
    `detection rate: ${pct(r.detection_rate)} of mutated sentences flagged`,
    ...MUTATIONS.map((k) => `  ${k.padEnd(9)} ${String(r.mutated[k].detected).padStart(4)}/${String(r.mutated[k].n).padEnd(4)} ${pct(r.mutated[k].rate)}`),
    `false-alarm rate: ${pct(r.false_alarm_rate)} (kept ${r.kept.flagged}/${r.kept.n}, paraphrased ${r.paraphrased.flagged}/${r.paraphrased.n})`,
  ];
  for (const f of r.false_alarms.slice(0, 15)) lines.push(`  false alarm: ${JSON.stringify(f.sentence)} — ${f.why}`);
  for (const m of r.missed.slice(0, 15)) lines.push(`  missed ${m.kind}: ${JSON.stringify(m.sentence)}`);
  return lines.join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const seedAt = args.indexOf("--seed");
  const report = evaluateClaims(goldenCorpusDir(), seedAt >= 0 ? Number(args[seedAt + 1]) >>> 0 : 1);
  process.stdout.write((args.includes("--json") ? JSON.stringify(report, null, 2) : renderClaimReport(report)) + "\n");
}

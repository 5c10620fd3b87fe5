/**
 * `npm run eval:redaction -- [--seed S] [--json]`
 *
 * Redaction measured against a corpus of secret shapes (test/fixtures/secret-shapes.json),
 * one or more examples per family of the public secret-scanning rule sets, with
 * fresh secret values generated from a seed each run (no secret is stored in the
 * repository), and against non-secret look-alikes. Prints recall (examples whose
 * every secret value was withheld), the misses, and the look-alikes that were
 * changed (false positives). It also checks that every reported redaction removed
 * something: the counts must equal the placeholders in the output.
 */
import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { redactSecrets } from "../src/answer/redaction.js";
import { mulberry32 } from "../src/core/random.js";

export interface ShapeCorpus {
  secrets: Array<{ family: string; text: string }>;
  lookalikes: string[];
}

export interface RedactionEvalReport {
  seed: number;
  examples: number;
  caught: number;
  recall: number;
  misses: Array<{ family: string; text: string; leaked: string[] }>;
  by_family: Record<string, { examples: number; caught: number }>;
  lookalikes: number;
  false_positives: Array<{ text: string; redacted: string }>;
  /** Examples whose reported counts differ from the placeholders actually written. */
  miscounted: number;
}

const CLASSES: Record<string, string> = {
  A: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
  a: "abcdefghijklmnopqrstuvwxyz0123456789",
  U: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
  H: "0123456789abcdef",
  B: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
  D: "0123456789",
  P: "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!#%^*_",
  L: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
};

const KEYS = {
  rsa: () => generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs1", format: "pem" }).toString().trim(),
  ec: () => generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "sec1", format: "pem" }).toString().trim(),
  pkcs8: () => generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString().trim(),
};

/** Fill a template: generated secrets are returned so the evaluation can look for them in the output. */
export function instantiate(template: string, rand: () => number): { text: string; secrets: string[] } {
  const secrets: string[] = [];
  const draw = (cls: string, n: number): string => Array.from({ length: n }, () => cls[Math.floor(rand() * cls.length)]!).join("");
  const text = template.replace(/\{\{([A-Za-z]+)(?::([a-z0-9]+))?\}\}/g, (_, kind: string, arg: string | undefined) => {
    if (kind === "user") return `user${draw(CLASSES.D!, 3)}`;
    if (kind === "host") return `db${draw(CLASSES.D!, 2)}.internal`;
    if (kind === "pem") {
      const pem = KEYS[arg as keyof typeof KEYS]();
      secrets.push(...pem.split("\n").filter((l) => !l.startsWith("-----") && l.length >= 16));
      return pem;
    }
    if (kind === "body") {
      const lines = Array.from({ length: Number(arg) }, () => draw(CLASSES.B!, 64));
      secrets.push(...lines);
      return lines.join("\n");
    }
    const value = draw(CLASSES[kind]!, Number(arg));
    secrets.push(value);
    return value;
  });
  return { text, secrets };
}

/** The secret pieces still present: a value survives if any 12-character stretch of it (or the whole, if shorter) is in the output. */
function leaked(output: string, secrets: readonly string[]): string[] {
  return secrets.filter((s) => {
    const w = Math.min(12, s.length);
    for (let i = 0; i + w <= s.length; i += Math.max(1, Math.floor(w / 2))) if (output.includes(s.slice(i, i + w))) return true;
    return false;
  });
}

export function loadShapeCorpus(): ShapeCorpus {
  const here = dirname(fileURLToPath(import.meta.url));
  // Runs from evals/ (vitest) and from .tools-build/evals/ (npm script).
  for (const up of ["..", "../.."]) {
    try {
      return JSON.parse(readFileSync(join(here, up, "test/fixtures/secret-shapes.json"), "utf8")) as ShapeCorpus;
    } catch {
      // try the next location
    }
  }
  throw new Error("test/fixtures/secret-shapes.json not found");
}

/** Run the evaluation. */
export function evaluateRedaction(corpus: ShapeCorpus, seed = 1): RedactionEvalReport {
  const rand = mulberry32(seed);
  const report: RedactionEvalReport = {
    seed,
    examples: 0,
    caught: 0,
    recall: 0,
    misses: [],
    by_family: {},
    lookalikes: corpus.lookalikes.length,
    false_positives: [],
    miscounted: 0,
  };
  for (const example of corpus.secrets) {
    const { text, secrets } = instantiate(example.text, rand);
    const r = redactSecrets(text);
    const placeholders = (r.text.match(/\[REDACTED:[a-z-]+\]/g) ?? []).length - (text.match(/\[REDACTED:[a-z-]+\]/g) ?? []).length;
    if (Object.values(r.counts).reduce((a, b) => a + b, 0) !== placeholders) report.miscounted++;
    const left = leaked(r.text, secrets);
    const fam = (report.by_family[example.family] ??= { examples: 0, caught: 0 });
    fam.examples++;
    report.examples++;
    if (left.length === 0) {
      fam.caught++;
      report.caught++;
    } else report.misses.push({ family: example.family, text, leaked: left });
  }
  for (const text of corpus.lookalikes) {
    const r = redactSecrets(text);
    if (r.text !== text) report.false_positives.push({ text, redacted: r.text });
  }
  report.recall = report.examples === 0 ? 0 : report.caught / report.examples;
  return report;
}

/** The report as text. */
export function renderRedactionReport(r: RedactionEvalReport): string {
  const lines = [
    `redaction recall: ${r.caught}/${r.examples} (${(100 * r.recall).toFixed(1)}%) over ${Object.keys(r.by_family).length} families, seed ${r.seed}`,
    `false positives: ${r.false_positives.length}/${r.lookalikes} look-alikes changed`,
    `miscounted redactions: ${r.miscounted}`,
  ];
  for (const m of r.misses) lines.push(`  missed [${m.family}] ${JSON.stringify(m.text.slice(0, 120))} leaked ${m.leaked.length}`);
  for (const f of r.false_positives) lines.push(`  false positive ${JSON.stringify(f.text)} -> ${JSON.stringify(f.redacted)}`);
  return lines.join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const seedAt = args.indexOf("--seed");
  const seed = seedAt >= 0 ? Number(args[seedAt + 1]) >>> 0 : 1;
  const report = evaluateRedaction(loadShapeCorpus(), seed);
  process.stdout.write((args.includes("--json") ? JSON.stringify(report, null, 2) : renderRedactionReport(report)) + "\n");
  process.exitCode = report.misses.length === 0 && report.miscounted === 0 ? 0 : 1;
}

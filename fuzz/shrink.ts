/**
 * Shrinking a failing case: greedily try simpler versions of its spec (fewer
 * documents, fewer lines or blocks, a shorter inserted text, default chunking,
 * zeroed parameters) and keep any that still fail the same way, until nothing
 * simpler fails or the budget runs out.
 */
import type { DocSpec } from "./corpus-gen.js";
import type { CaseSpec } from "./case-spec.js";
import type { FailureKind } from "./oracle.js";
import { runCase, type CaseResult, type FuzzEnv } from "./run-case.js";

export interface ShrinkResult {
  spec: CaseSpec;
  result: CaseResult;
  attempts: number;
  /** Size before and after (documents, model units, inserted text length). */
  from: number;
  to: number;
}

/** A rough size: what the shrinker tries to make smaller. */
export function specSize(spec: CaseSpec): number {
  let n = spec.docs.length * 1000 + spec.params.text.length;
  for (const d of spec.docs) n += modelUnits(d);
  return n;
}

function modelUnits(d: DocSpec): number {
  const m = d.model;
  if (m.type === "text") return m.raw.length;
  if (m.type === "html") return m.blocks.reduce((n, b) => n + b.text.length, 0);
  return m.pages.reduce((n, p) => n + p.join("\n").length, 0);
}

function* removals<T>(items: readonly T[], keep: (rest: T[]) => boolean): Generator<T[]> {
  for (let size = Math.max(1, Math.floor(items.length / 2)); size >= 1; size = Math.floor(size / 2)) {
    for (let start = 0; start + size <= items.length; start += size) {
      const rest = [...items.slice(0, start), ...items.slice(start + size)];
      if (rest.length > 0 && keep(rest)) yield rest;
    }
  }
}

function* simplerDocs(d: DocSpec): Generator<DocSpec> {
  const m = d.model;
  if (m.type === "text") {
    const lines = m.raw.match(/[^\r\n]*(\r\n|\r|\n|$)/g)!.filter((l) => l.length > 0);
    for (const rest of removals(lines, (r) => r.join("").includes(d.marker))) yield { ...d, model: { type: "text", raw: rest.join("") } };
  } else if (m.type === "html") {
    for (const rest of removals(m.blocks, (r) => r.some((b) => b.text.includes(d.marker)))) yield { ...d, model: { ...m, blocks: rest } };
  } else {
    for (const rest of removals(m.pages, (r) => r.some((p) => p.some((l) => l.includes(d.marker))))) yield { ...d, model: { ...m, pages: rest } };
    for (const [i, page] of m.pages.entries()) {
      for (const lines of removals(page, () => true)) {
        const pages = m.pages.map((p, k) => (k === i ? lines : p));
        if (pages.some((p) => p.some((l) => l.includes(d.marker)))) yield { ...d, model: { ...m, pages } };
      }
    }
  }
}

function* candidates(spec: CaseSpec): Generator<CaseSpec> {
  if (spec.docs.length > 1) {
    yield { ...spec, docs: spec.docs.slice(0, 1) };
    for (let i = 1; i < spec.docs.length; i++) yield { ...spec, docs: spec.docs.filter((_, k) => k !== i) };
  }
  for (const doc of simplerDocs(spec.docs[0]!)) yield { ...spec, docs: [doc, ...spec.docs.slice(1)] };
  const words = spec.params.text.trim().split(/\s+/);
  if (words.length > 1) yield { ...spec, params: { ...spec.params, text: words[0]! } };
  if (spec.params.text !== "x") yield { ...spec, params: { ...spec.params, text: "x" } };
  if (spec.chunkSize !== 2400) yield { ...spec, chunkSize: 2400, chunkOverlap: 200 };
  for (const key of ["a", "b", "c", "pick"] as const) if (spec.params[key] !== 0) yield { ...spec, params: { ...spec.params, [key]: 0 } };
  if (spec.via !== 0.9) yield { ...spec, via: 0.9 };
}

/**
 * Shrink `spec`, which failed with `kind`. Each attempt re-runs the case in a
 * fresh world, so the budget bounds the time spent. Every accepted step either
 * makes the spec smaller or moves a parameter to its fixed simplest value, so
 * the search terminates.
 */
export async function shrinkCase(spec: CaseSpec, kind: FailureKind, env: FuzzEnv, budget = { attempts: 200, ms: 60_000 }): Promise<ShrinkResult> {
  const started = performance.now();
  let best = spec;
  let bestResult = await runCase(spec, env);
  let attempts = 1;
  const from = specSize(spec);
  let improved = true;
  while (improved && attempts < budget.attempts && performance.now() - started < budget.ms) {
    improved = false;
    for (const candidate of candidates(best)) {
      if (attempts >= budget.attempts || performance.now() - started >= budget.ms) break;
      attempts++;
      const result = await runCase(candidate, env);
      if (result.failures.some((f) => f.kind === kind)) {
        best = candidate;
        bestResult = result;
        improved = true;
        break;
      }
    }
  }
  return { spec: best, result: bestResult, attempts, from, to: specSize(best) };
}

/**
 * Running one fuzz case: build and ingest its world, take citations from real
 * searches (checking each against the model: text, hash, lines, pages), apply
 * the mutation, verify every citation through the library API, and judge each
 * verdict against the oracle.
 */
import type { Citation, SearchHit, SourceClass, Verification } from "../src/core/contracts.js";
import { getExtractorRegistry } from "../src/extract/registry.js";
import { cpLength, cpSlice, lineRangeOf } from "./codepoints.js";
import { classOf, pdfPageStarts, type DocKind } from "./corpus-gen.js";
import type { CaseSpec } from "./case-spec.js";
import { MUTATIONS, type MutationKind, type MutationOutcome } from "./mutations.js";
import type { PermissionSupport } from "./nobody.js";
import { expectVerdict, judge, linesMoved, sha256Hex, type Availability, type CitedSpan, type Expectation, type Failure } from "./oracle.js";
import { Rng, mixSeed } from "./rng.js";
import type { StoreTarget } from "./store-target.js";
import { buildWorld, destroyWorld, HarnessError, type PageServer, type World } from "./world.js";

/** What every case of a run shares. */
export interface FuzzEnv {
  /** Scratch directory for worlds (others must be able to traverse it for the nobody worker). */
  root: string;
  server: PageServer;
  perm: PermissionSupport;
  /** A verification taking longer than this is a hang. */
  hangTimeoutMs: number;
  /** Where the worlds' collections live. */
  store: StoreTarget;
}

/** One verified citation. */
export interface CheckRecord {
  docKind: DocKind;
  sourceClass: SourceClass;
  primary: boolean;
  expected: Verification["verdict"];
  actual: Verification["verdict"] | "exception" | "hang";
  reason?: string | undefined;
  /** A drifted verdict whose location was checked: "located" (offsets given and right) or "absent" (rightly none). */
  relocation?: "located" | "absent" | undefined;
  /** The located offsets are exactly where the mutation moved the text. */
  atPredicted?: boolean | undefined;
  detail: string;
  failures: Failure[];
}

/** The outcome of one case. */
export interface CaseResult {
  spec: CaseSpec;
  kind: MutationKind;
  variant: string;
  targetKind: DocKind;
  skipped?: string | undefined;
  checks: CheckRecord[];
  /** Every failure of the case (checks' failures plus harness, invariant and mutation ones). */
  failures: Failure[];
  ms: number;
}

const MAX_TARGET_CITATIONS = 6;

/** Run one case. Never throws: problems become failures. */
export async function runCase(spec: CaseSpec, env: FuzzEnv): Promise<CaseResult> {
  const started = performance.now();
  const result: CaseResult = { spec, kind: spec.kind, variant: "", targetKind: spec.docs[0]!.kind, checks: [], failures: [], ms: 0 };
  let world: World | undefined;
  try {
    world = await buildWorld(env.root, `c${spec.index}`, spec.docs, { chunkSize: spec.chunkSize, chunkOverlap: spec.chunkOverlap }, env.server, env.store);
    await runInWorld(spec, env, world, result);
  } catch (err) {
    const kind = err instanceof HarnessError ? "harness" : "exception";
    result.failures.push({ kind, message: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  } finally {
    if (world) await destroyWorld(world);
  }
  result.ms = performance.now() - started;
  return result;
}

async function runInWorld(spec: CaseSpec, env: FuzzEnv, world: World, result: CaseResult): Promise<void> {
  const def = MUTATIONS[spec.kind];
  const rng = new Rng(mixSeed(spec.seed, spec.index, 0x5e1));
  const target = world.docs[0]!;

  // Citations from real searches: the target's marker, then one hit per distractor.
  const targetHits = (await world.col.search(target.spec.marker, { topK: 50 })).filter((h) => h.document_id === target.documentId);
  if (targetHits.length === 0) throw new HarnessError(`a search for ${target.spec.marker} found no chunk of the target ${target.spec.kind}`);
  const cited: CitedSpan[] = [];
  for (const hit of targetHits) result.failures.push(...checkHit(world, 0, hit));
  const L = cpLength(target.content);
  const candidates = targetHits
    .filter((h) => !def.accepts || def.accepts(h.citation.start_offset, h.citation.end_offset, L))
    .sort((a, b) => a.citation.start_offset - b.citation.start_offset);
  if (candidates.length === 0) {
    result.skipped = `no citation of the ${target.spec.kind} suits ${spec.kind}`;
    return;
  }
  const primary = candidates[Math.min(candidates.length - 1, Math.floor(spec.params.pick * candidates.length))]!;
  cited.push({ citation: primary.citation, text: primary.text, doc: 0, primary: true });
  const others = targetHits.filter((h) => h !== primary);
  for (let k = 0; k < MAX_TARGET_CITATIONS - 1 && others.length > 0; k++) {
    const hit = others.splice(rng.int(0, others.length), 1)[0]!;
    cited.push({ citation: hit.citation, text: hit.text, doc: 0, primary: false });
  }
  for (let d = 1; d < world.docs.length; d++) {
    const doc = world.docs[d]!;
    const hits = (await world.col.search(doc.spec.marker, { topK: 5 })).filter((h) => h.document_id === doc.documentId);
    if (hits.length === 0) throw new HarnessError(`a search for ${doc.spec.marker} found no chunk of distractor ${doc.spec.kind}`);
    for (const hit of hits) result.failures.push(...checkHit(world, d, hit));
    const hit = hits[rng.int(0, hits.length)]!;
    cited.push({ citation: hit.citation, text: hit.text, doc: d, primary: false });
  }

  const outcome = await def.apply({ world, primary: cited[0]!, params: spec.params, perm: env.perm });
  result.variant = outcome.variant;
  result.failures.push(...outcome.failures);
  if (outcome.skipped) {
    result.skipped = outcome.skipped;
    return;
  }

  const requestsBefore = world.server.requests;
  const verdicts = await verifyAll(spec, env, world, cited, outcome);
  if (world.server.requests !== requestsBefore) {
    result.failures.push({ kind: "invariant", message: `verification fetched a URL (${world.server.requests - requestsBefore} requests); snapshots must be read locally` });
  }
  for (const [k, span] of cited.entries()) {
    const record = await judgeOne(world, span, verdicts[k]!, outcome);
    result.checks.push(record);
    result.failures.push(...record.failures);
    if (record.failures.length > 0) result.failures.push(...(await diagnoseModel(world, span.doc, outcome)));
  }
}

/**
 * After a failed check on an extracted document, say whether the oracle's
 * model of the extractor still holds for the bytes now on disk (a harness
 * problem) — reported in addition to the failure, never instead of it.
 */
async function diagnoseModel(world: World, d: number, outcome: MutationOutcome): Promise<Failure[]> {
  const doc = world.docs[d]!;
  const avail = await availabilityOf(world, d, outcome);
  if (classOf(doc.spec.kind) !== "extracted" || !avail.readable) return [];
  const extractor = (await getExtractorRegistry()).get(doc.spec.model.type === "pdf" ? "pdf" : "html");
  if (!extractor) return [];
  try {
    const text = (await extractor.extract(doc.bytes)).text;
    if (text === avail.content) return [];
    let i = 0;
    while (i < text.length && text[i] === avail.content[i]) i++;
    return [{ kind: "harness", message: `model mismatch on ${doc.spec.kind}: the extractor gives ${JSON.stringify(text.slice(i, i + 40))}, the model ${JSON.stringify(avail.content.slice(i, i + 40))} at ${i}` }];
  } catch {
    return [];
  }
}

/** Invariants of a search hit against the model: text = content slice, hash, lines, pages, class. */
function checkHit(world: World, d: number, hit: SearchHit): Failure[] {
  const doc = world.docs[d]!;
  const c = hit.citation;
  const fail = (message: string): Failure => ({ kind: "invariant", message: `${doc.spec.kind} ${c.start_offset}-${c.end_offset}: ${message}` });
  const out: Failure[] = [];
  const slice = cpSlice(doc.content, c.start_offset, c.end_offset);
  if (c.end_offset > cpLength(doc.content) || slice !== hit.text) out.push(fail("the hit's text is not the content's code points [start, end)"));
  if (sha256Hex(hit.text) !== c.text_hash) out.push(fail("the text hash is not the hash of the hit's text"));
  const lines = lineRangeOf(doc.content, c.start_offset, c.end_offset);
  if (lines.startLine !== c.start_line || lines.endLine !== c.end_line) {
    out.push(fail(`lines ${c.start_line}-${c.end_line}, expected ${lines.startLine}-${lines.endLine}`));
  }
  if (c.source_class !== classOf(doc.spec.kind)) out.push(fail(`source_class ${c.source_class}`));
  if ((c.source_class === "extracted") !== (c.extractor !== null)) out.push(fail(`extractor ${String(c.extractor)}`));
  if (c.source !== doc.source || c.document_id !== doc.documentId) out.push(fail("source or document id differs from the document's"));
  if (doc.spec.model.type === "pdf") {
    const starts = pdfPageStarts(doc.spec.model);
    const page = (cp: number): number => starts.filter((s) => s <= cp).length;
    const want = [page(c.start_offset), page(Math.max(c.start_offset, c.end_offset - 1))];
    if (c.page_start !== want[0] || c.page_end !== want[1]) out.push(fail(`pages ${c.page_start}-${c.page_end}, expected ${want[0]}-${want[1]}`));
  } else if ((c.page_start ?? null) !== null || (c.page_end ?? null) !== null) {
    out.push(fail("a document without pages cites a page"));
  }
  return out;
}

type Answer = { verification: Verification } | { error: string } | { hang: string };

async function verifyAll(spec: CaseSpec, env: FuzzEnv, world: World, cited: CitedSpan[], outcome: MutationOutcome): Promise<Answer[]> {
  const answers: Answer[] = [];
  const untouched = !outcome.indexChanged && !outcome.editCitation && !outcome.verifyAsNobody;
  let viaSearch: Map<string, Verification> | undefined;
  if (untouched && spec.via >= 0.25 && spec.via < 0.4) {
    viaSearch = new Map();
    for (const d of new Set(cited.map((c) => c.doc))) {
      const run = withTimeout(world.col.search(world.docs[d]!.spec.marker, { topK: 50, verify: true }), env.hangTimeoutMs, outcome.unblock);
      const res = await run.catch((err: unknown) => err);
      if (!Array.isArray(res)) continue; // fall back to verify() per citation below
      for (const hit of res as SearchHit[]) if (hit.verification) viaSearch.set(hit.chunk_id, hit.verification);
    }
  }
  for (const span of cited) {
    const citation: Citation | Record<string, unknown> =
      outcome.editCitation && span.doc === 0 ? outcome.editCitation(span.citation) : span.citation;
    const fromSearch = viaSearch?.get(span.citation.chunk_id);
    if (fromSearch) {
      answers.push({ verification: fromSearch });
      continue;
    }
    let call: Promise<Verification>;
    if (outcome.verifyAsNobody && env.perm.mode === "worker") {
      const known = (await world.store.getChunk(span.citation.chunk_id))?.text_hash === span.citation.text_hash;
      const doc = await world.store.getDocument(span.citation.document_id);
      call = env.perm.worker.verify({
        citation,
        indexed: doc && { source: doc.source, source_class: doc.source_class, extractor: doc.extractor },
        baseDir: world.docsDir,
        snapshotDir: world.snapshotDir,
        originalText: known ? span.text : undefined,
      });
    } else if (untouched && spec.via < 0.25) {
      call = world.col.getChunk(span.citation.chunk_id).then((view) => view.verification);
    } else {
      call = world.col.verify(citation);
    }
    try {
      answers.push({ verification: await withTimeout(call, env.hangTimeoutMs, outcome.unblock) });
    } catch (err) {
      if (err instanceof HangError) answers.push({ hang: err.message });
      else answers.push({ error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
    }
  }
  return answers;
}

class HangError extends Error {
  override name = "HangError";
}

/**
 * Await `p`, but if it takes longer than `ms`, reject with a HangError (after
 * releasing whatever it is stuck on, so the process does not keep a blocked
 * thread for the rest of the run).
 */
function withTimeout<T>(p: Promise<T>, ms: number, unblock: (() => void) | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let hung = false;
    let release: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      hung = true;
      if (unblock) release = setInterval(unblock, 20);
      reject(new HangError(`verification did not answer within ${ms} ms`));
    }, ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        if (release) clearInterval(release);
        if (!hung) resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        if (release) clearInterval(release);
        if (!hung) reject(err);
      },
    );
  });
}

async function availabilityOf(world: World, d: number, outcome: MutationOutcome): Promise<Availability> {
  // A document the index no longer holds is never read, whatever its file says.
  if (!(await world.store.getDocument(world.docs[d]!.documentId))) return { readable: false, reason: "not-indexed" };
  return outcome.avail.get(d) ?? { readable: true, content: world.docs[d]!.content };
}

async function judgeOne(world: World, span: CitedSpan, answer: Answer, outcome: MutationOutcome): Promise<CheckRecord> {
  const doc = world.docs[span.doc]!;
  const avail = await availabilityOf(world, span.doc, outcome);
  const originalKnown = (await world.store.getChunk(span.citation.chunk_id))?.text_hash === span.citation.text_hash;
  const exp: Expectation = expectVerdict(span, avail, originalKnown, doc.content);
  // HTML citations name the file's lines too (ADR 0017): moved lines may make unchanged text drifted.
  if (exp.verdict === "verified" && classOf(doc.spec.kind) === "extracted" && doc.spec.model.type === "html" && (outcome.indexChanged || linesMoved(doc.placedBytes, doc.bytes))) {
    exp.orDrifted = true;
  }
  const base = {
    docKind: doc.spec.kind,
    sourceClass: classOf(doc.spec.kind),
    primary: span.primary,
    expected: exp.verdict,
    reason: exp.reason,
  };
  if ("hang" in answer) {
    return { ...base, actual: "hang", detail: answer.hang, failures: [{ kind: "hang", message: `${doc.spec.kind} (${outcome.variant}): ${answer.hang}` }] };
  }
  if ("error" in answer) {
    return {
      ...base,
      actual: "exception",
      detail: answer.error,
      failures: [{ kind: "exception", message: `${doc.spec.kind} (${outcome.variant}): verification threw instead of answering: ${answer.error}` }],
    };
  }
  const v = answer.verification;
  const failures = judge(exp, v, span);
  for (const needle of outcome.mustMention.get(span.doc) ?? []) {
    if (v.verdict === exp.verdict && !v.detail.includes(needle)) {
      failures.push({ kind: "detail-mismatch", message: `${doc.spec.kind}: the detail should name ${needle}: ${v.detail}` });
    }
  }
  let relocation: CheckRecord["relocation"];
  let atPredicted: boolean | undefined;
  if (exp.verdict === "drifted" && v.verdict === "drifted" && exp.relocated !== undefined) {
    relocation = exp.relocated ? "located" : "absent";
    if (exp.relocated && span.primary && outcome.predicted !== undefined) atPredicted = exp.relocated.start_offset === outcome.predicted;
  }
  return { ...base, actual: v.verdict, detail: v.detail, relocation, atPredicted, failures };
}

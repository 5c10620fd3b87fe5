/**
 * The checks `grk doctor` runs on an open collection, and the repairs
 * `--repair` may make. Each check says what it found and, for every problem,
 * what to do about it; a repair does only what cannot lose anything: rebuild
 * derived structures, sweep rows and files that belong to nothing, backfill
 * vectors with the recorded model, and mark damaged documents for re-ingest.
 */
import type { Verification } from "../core/contracts.js";
import { toGroundkitError } from "../core/errors.js";
import { bindProvider, recordedIdentity } from "../embed/binding.js";
import type { EmbeddingProvider } from "../embed/provider.js";
import { describeIdentity } from "../embed/provider.js";
import type { EmbeddingConfig } from "../embed/registry.js";
import { getExtractorRegistry } from "../extract/registry.js";
import { redactUrl } from "../net/url-shape.js";
import { sha256 } from "../core/text.js";
import type { SnapshotStore } from "../store/snapshots.js";
import type { DoctorCheck, DoctorProblem, StoreHealth } from "../store/store-health.js";

export type { DoctorCheck, DoctorProblem } from "../store/store-health.js";
import type { Store, VectorIndexStatus } from "../store/store.js";

/** Verdicts of the sampled citations of one source class. */
export interface SampleOutcome {
  sampled: number;
  verified: number;
  drifted: number;
  unresolvable: number;
  /** drifted / sampled (0 with nothing sampled). */
  drift_rate: number;
}

/** One thing `--repair` did. */
export interface RepairAction {
  check: string;
  did: string;
}

/** What the checks need of a collection (status.ts hands them over). */
export interface HealthParts {
  name: string;
  store: Store;
  /** The store's row checks and repairs (store-health.ts). */
  health: StoreHealth;
  snapshots: SnapshotStore;
  /** The embedding configuration a search would use (config file), if any. */
  embedding: EmbeddingConfig | undefined;
  baseDirs: string[];
  /** A chunk's fresh verdict, exactly as `grk show` computes it. */
  verifyChunk: (chunkId: string) => Promise<Verification>;
}

const SOURCE_CLASSES = ["text", "extracted", "snapshot"] as const;
/** Snapshot documents read per page. */
const SNAPSHOT_PAGE = 500;
/** Sources named in a problem at most. */
const MAX_EXAMPLES = 5;

function ok(name: string, detail: string): DoctorCheck {
  return { name, status: "ok", detail, problems: [] };
}

function problem(name: string, detail: string, problems: DoctorProblem[]): DoctorCheck {
  return { name, status: problems.length ? "problem" : "ok", detail, problems };
}

/** The command that re-reads a collection's folders (changed and damaged documents are rewritten). */
function reingestCommand(parts: HealthParts): string {
  const dirs = parts.baseDirs.length ? parts.baseDirs.map(shellWord).join(" ") : "<path>";
  return `grk ingest ${dirs} --collection ${parts.name}`;
}

function shellWord(s: string): string {
  return /^[\w./@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

function examples(items: readonly string[]): string {
  const shown = items.slice(0, MAX_EXAMPLES).join(", ");
  return items.length > MAX_EXAMPLES ? `${shown}, …` : shown;
}

function displaySource(source: string): string {
  return /^https?:\/\//i.test(source) ? redactUrl(source) : source;
}

/** Run a check; one that throws (a damaged page, say) is a problem of its own, not the end of the run. */
async function guarded(name: string, run: () => DoctorCheck | Promise<DoctorCheck>): Promise<DoctorCheck> {
  try {
    return await run();
  } catch (err) {
    const e = toGroundkitError(err);
    return problem(name, "the check could not complete", [
      {
        message: `${name} check failed: ${e.message}`,
        action: "See the integrity check above; restore the collection file from a backup, or delete the collection and ingest again.",
        repairable: false,
      },
    ]);
  }
}

async function chunksCheck(parts: HealthParts): Promise<DoctorCheck> {
  const problems: DoctorProblem[] = [];
  const orphans = await parts.health.countOrphanChunks();
  if (orphans > 0) {
    problems.push({
      message: `${orphans} chunk(s) belong to no document`,
      action: "Run `grk doctor --repair` to delete them (and rebuild the postings).",
      repairable: true,
    });
  }
  const bad = await parts.health.inconsistentDocuments();
  if (bad.count > 0) {
    const first = bad.named[0]!;
    const marked = bad.named.every((d) => d.stale);
    problems.push({
      message:
        `${bad.count} document(s) have chunks that disagree with them (${examples(bad.named.map((d) => displaySource(d.source)))}); ` +
        `first: ${displaySource(first.source)}: ${first.reason}`,
      action: marked
        ? `They are marked for re-indexing: run \`${reingestCommand(parts)}\`.`
        : `Run \`grk doctor --repair\` to mark them for re-indexing, then \`${reingestCommand(parts)}\`.`,
      repairable: !marked,
    });
  }
  const docs = await parts.store.stats();
  return problem("chunks", `${docs.documents} document(s), ${docs.chunks} chunk(s) checked`, problems);
}

function derivedChecks(parts: HealthParts): Promise<DoctorCheck[]> {
  return Promise.all(
    parts.health.derivedStructures().map((index) =>
      guarded(index.name, async () => {
        const state = await index.check();
        if (state.current) return ok(index.name, `${index.description}: ${state.detail}`);
        return problem(index.name, `${index.description}: not current`, [
          {
            message: `${index.description} are not current: ${state.detail}`,
            action: "Run `grk doctor --repair` to rebuild them from the chunk rows.",
            repairable: true,
          },
        ]);
      }),
    ),
  );
}

async function vectorsCheck(parts: HealthParts): Promise<DoctorCheck> {
  const identity = await recordedIdentity(parts.store);
  const cov = await parts.health.vectorCoverage();
  if (cov.dimensions === undefined && !identity) return ok("vectors", "BM25-only collection (no vectors)");
  const problems: DoctorProblem[] = [];
  if (cov.missing > 0) {
    problems.push({
      message: `${cov.missing} chunk(s) have no vector, so dense and hybrid search cannot find them`,
      action: `Run \`grk doctor --repair\` to embed them with the recorded model (or \`${reingestCommand(parts)} --dense\`).`,
      repairable: true,
    });
  }
  if (cov.orphans > 0) {
    problems.push({
      message: `${cov.orphans} vector(s) belong to no chunk`,
      action: "Run `grk doctor --repair` to delete them.",
      repairable: true,
    });
  }
  if (identity && cov.dimensions !== undefined && identity.dimensions !== cov.dimensions) {
    problems.push({
      message: `the recorded embedding identity is ${identity.dimensions}-d but the stored vectors are ${cov.dimensions}-d`,
      action: `Re-embed the collection: \`grk reembed --collection ${parts.name}\`.`,
      repairable: false,
    });
  }
  // Under window policy "max" a chunk has one vector per window, so the two counts differ.
  const perWindow = cov.vectors !== cov.chunks_with_vectors ? ` for ${cov.chunks_with_vectors} chunk(s), one per window` : "";
  return problem("vectors", `${cov.vectors} vector(s)${cov.dimensions ? ` of ${cov.dimensions} dimensions` : ""}${perWindow}`, problems);
}

/** The HNSW index derived from the vectors: saved, at the committed vectors' state, with its re-rank vectors file. */
async function vectorIndexCheck(parts: HealthParts): Promise<DoctorCheck> {
  const v = await parts.store.vectorIndexStatus();
  if (v.kind === "exact") return ok("vector-index", `exact search (${v.reason ?? "no graph"})`);
  const whyNot: Record<Exclude<VectorIndexStatus["state"], "current" | "none">, string> = {
    behind: `${v.pending_changes} committed vector change(s) are not in the saved HNSW index (a writer stopped before saving it); searches apply them in memory on every open`,
    stale: "the saved HNSW index does not match the committed vectors (ahead of them, or of another embedding); it is rebuilt in memory on every open until saved again",
    missing: `no HNSW index is saved for ${v.vectors} vectors; it is built in memory on every open until saved`,
  };
  const problems: DoctorProblem[] = [];
  const action = "Run `grk doctor --repair` (or the next ingest) to save it.";
  if (v.state !== "current" && v.state !== "none") problems.push({ message: whyNot[v.state], action, repairable: true });
  for (const damage of await parts.health.damagedVectorIndexFiles()) {
    problems.push({
      message: `the saved HNSW index is damaged: ${damage}; searches do not use what is damaged (the graph is rebuilt in memory, or candidates re-ranked from sqlite-vec)`,
      action: "Run `grk doctor --repair` to rebuild it from the committed vectors.",
      repairable: true,
    });
  }
  if (v.rerank_vectors === false) {
    problems.push({
      message: "the HNSW index's re-rank vectors file is missing or incomplete: searches re-rank from sqlite-vec, slowly at scale",
      action,
      repairable: true,
    });
  }
  return problem("vector-index", `HNSW (${v.library}), ${v.indexed_vectors} of ${v.vectors} vectors, ${v.state}`, problems);
}

async function embeddingCheck(parts: HealthParts): Promise<DoctorCheck> {
  const identity = await recordedIdentity(parts.store);
  if (!identity) return ok("embedding", "no embedding identity recorded");
  try {
    await loadRecordedProvider(parts);
    return ok("embedding", `${describeIdentity(identity)} loads`);
  } catch (err) {
    const e = toGroundkitError(err);
    return problem("embedding", describeIdentity(identity), [
      {
        message: `the recorded embedding identity (${describeIdentity(identity)}) cannot be loaded: ${e.message}`,
        action:
          "Make that model available again (its package, model directory or endpoint, see `embedding` in groundkit.config.json), " +
          `or re-embed with another: \`grk reembed --collection ${parts.name}\`.`,
        repairable: false,
      },
    ]);
  }
}

function loadRecordedProvider(parts: HealthParts): Promise<EmbeddingProvider> {
  return bindProvider(parts.store, parts.name, parts.embedding).then((b) => b.provider);
}

async function extractorsCheck(parts: HealthParts): Promise<DoctorCheck> {
  const recorded = await parts.health.recordedExtractors();
  if (recorded.length === 0) return ok("extractors", "no extracted documents");
  const registry = await getExtractorRegistry();
  const active = registry.activeIdentities();
  const problems = recorded
    .filter((r) => registry.byIdentity(r.extractor) === undefined)
    .map((r) => ({
      message:
        `${r.documents} document(s) were extracted by ${r.extractor}, which is not active in this build ` +
        `(active: ${active.length ? active.join(", ") : "none"}), so their citations are unresolvable`,
      action: `Re-ingest them with the active extractor: \`${reingestCommand(parts)}\`.`,
      repairable: false,
    }));
  return problem("extractors", recorded.map((r) => `${r.extractor}: ${r.documents} document(s)`).join(", "), problems);
}

async function snapshotsCheck(parts: HealthParts): Promise<DoctorCheck> {
  const missing: string[] = [];
  const damaged: string[] = [];
  let total = 0;
  for (let after = 0; ; ) {
    const page = await parts.health.snapshotDocuments(after, SNAPSHOT_PAGE);
    if (page.length === 0) break;
    after = page[page.length - 1]!.rowid;
    for (const doc of page) {
      total++;
      let text: string | undefined;
      try {
        text = await parts.snapshots.read(doc.document_id);
      } catch {
        damaged.push(displaySource(doc.source));
        continue;
      }
      if (text === undefined) missing.push(displaySource(doc.source));
      else if (sha256(text) !== doc.content_hash) damaged.push(displaySource(doc.source));
    }
  }
  const problems: DoctorProblem[] = [];
  const refetch = (urls: string[]) =>
    `Fetch ${urls.length === 1 ? "it" : "them"} again (the stored copy is rewritten): \`grk ingest ${urls.slice(0, MAX_EXAMPLES).map(shellWord).join(" ")} --collection ${parts.name}\`.`;
  if (missing.length) {
    problems.push({
      message: `${missing.length} of ${total} snapshot document(s) have no stored snapshot, so their citations are unresolvable: ${examples(missing)}`,
      action: refetch(missing),
      repairable: false,
    });
  }
  if (damaged.length) {
    problems.push({
      message: `${damaged.length} stored snapshot(s) are unreadable or differ from what was indexed: ${examples(damaged)}`,
      action: refetch(damaged),
      repairable: false,
    });
  }
  const strays = await parts.snapshots.strays(async (id) => (await parts.store.getDocument(id))?.source_class === "snapshot");
  if (strays.length) {
    problems.push({
      message: `${strays.length} file(s) in ${parts.snapshots.dir} belong to no snapshot document`,
      action: "Run `grk doctor --repair` to remove them.",
      repairable: true,
    });
  }
  return problem("snapshots", `${total} snapshot document(s)`, problems);
}

/** Re-verify up to `n` random citations of each source class; the sample's verdicts by class. */
async function citationsCheck(parts: HealthParts, n: number): Promise<{ check: DoctorCheck; sample: Record<string, SampleOutcome> }> {
  const sample: Record<string, SampleOutcome> = {};
  const problems: DoctorProblem[] = [];
  for (const cls of SOURCE_CLASSES) {
    const ids = n > 0 ? await parts.health.sampleChunkIds(cls, n) : [];
    if (ids.length === 0) continue;
    const outcome: SampleOutcome = { sampled: ids.length, verified: 0, drifted: 0, unresolvable: 0, drift_rate: 0 };
    const drifted: string[] = [];
    const unresolvable: Array<{ source: string; detail: string }> = [];
    for (const id of ids) {
      const chunk = await parts.store.getChunk(id);
      if (!chunk) continue; // replaced by a writer since it was sampled
      const v = await parts.verifyChunk(id);
      outcome[v.verdict]++;
      const source = displaySource(chunk.document.source);
      if (v.verdict === "drifted" && !drifted.includes(source)) drifted.push(source);
      if (v.verdict === "unresolvable") unresolvable.push({ source, detail: v.detail });
    }
    outcome.drift_rate = outcome.drifted / outcome.sampled;
    sample[cls] = outcome;
    if (outcome.drifted > 0) {
      problems.push({
        message:
          `${outcome.drifted} of ${outcome.sampled} sampled ${cls} citation(s) drifted (${percent(outcome.drift_rate)}): ` +
          `their sources changed since ingest (${examples(drifted)})`,
        action:
          cls === "snapshot"
            ? "A stored snapshot changed: fetch those URLs again with `grk ingest <url>`."
            : `Re-index what changed: \`${reingestCommand(parts)}\`.`,
        repairable: false,
      });
    }
    if (outcome.unresolvable > 0) {
      const first = unresolvable[0]!;
      problems.push({
        message:
          `${outcome.unresolvable} of ${outcome.sampled} sampled ${cls} citation(s) cannot be checked; ` +
          `first: ${first.source}: ${first.detail}`,
        action: `Follow the detail (a missing file is pruned by \`${reingestCommand(parts)}\`); see each with \`grk show <chunk_id>\`.`,
        repairable: false,
      });
    }
  }
  const summary = Object.entries(sample)
    .map(([cls, o]) => `${cls} ${o.verified}/${o.sampled} verified (drift ${percent(o.drift_rate)})`)
    .join(", ");
  return { check: problem("citations", summary || "nothing to sample", problems), sample };
}

function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

/** Every check of an open collection, in order, with the citation sample's verdicts. */
/**
 * The document history (docs/decisions/0031-document-history.md): every span names a stored block, and every
 * block's text hashes to its key. Not repaired: the text of a broken version is gone either way, and
 * dropping it is the user's call.
 */
async function historyCheck(parts: HealthParts): Promise<DoctorCheck> {
  const h = await parts.store.historyHealth();
  const detail = `${h.versions} previous version(s), ${h.blocks} distinct text block(s), ${h.bytes} bytes`;
  const problems: DoctorProblem[] = [];
  const examples = h.examples.length > 0 ? ` (e.g. ${h.examples.slice(0, 3).join(", ")})` : "";
  const action =
    "those versions' text cannot be shown as it was; `grk ingest <folder> --history off` drops all history (then `--history on` starts it again)";
  if (h.dangling > 0) problems.push({ message: `${h.dangling} history span(s) name a text block that is not stored${examples}`, action, repairable: false });
  if (h.mismatched > 0) problems.push({ message: `${h.mismatched} history block(s) whose text does not hash to their key${examples}`, action, repairable: false });
  return { name: "history", status: problems.length > 0 ? "problem" : "ok", detail, problems };
}

export async function runHealthChecks(
  parts: HealthParts,
  opts: { sample: number },
): Promise<{ checks: DoctorCheck[]; sample: Record<string, SampleOutcome> }> {
  const checks: DoctorCheck[] = [];
  checks.push(await guarded("chunks", () => chunksCheck(parts)));
  checks.push(...(await derivedChecks(parts)));
  checks.push(await guarded("vectors", () => vectorsCheck(parts)));
  checks.push(await guarded("vector-index", () => vectorIndexCheck(parts)));
  checks.push(await guarded("embedding", () => embeddingCheck(parts)));
  checks.push(await guarded("extractors", () => extractorsCheck(parts)));
  checks.push(await guarded("snapshots", () => snapshotsCheck(parts)));
  checks.push(await guarded("history", () => historyCheck(parts)));
  let sample: Record<string, SampleOutcome> = {};
  checks.push(
    await guarded("citations", async () => {
      const r = await citationsCheck(parts, opts.sample);
      sample = r.sample;
      return r.check;
    }),
  );
  return { checks, sample };
}

/**
 * The safe repairs, in dependency order (orphans go before the postings are
 * rebuilt). The caller holds the writer lock on a writable store.
 * `backfill` embeds chunks without a vector with the given provider.
 */
export async function repairCollection(
  parts: HealthParts,
  backfill: (provider: EmbeddingProvider) => Promise<number>,
): Promise<RepairAction[]> {
  const did: RepairAction[] = [];
  const orphanChunks = await parts.health.deleteOrphanChunks();
  if (orphanChunks > 0) did.push({ check: "chunks", did: `deleted ${orphanChunks} chunk(s) that belonged to no document` });
  const bad = await parts.health.inconsistentDocuments(Number.POSITIVE_INFINITY);
  if (bad.count > 0) {
    const marked = await parts.health.markDocumentsStale(bad.named.map((d) => d.document_id));
    did.push({
      check: "chunks",
      did: `marked ${marked} document(s) with inconsistent chunks for re-indexing: run \`${reingestCommand(parts)}\``,
    });
  }
  for (const index of parts.health.derivedStructures()) {
    if (!(await index.check()).current) did.push({ check: index.name, did: await index.rebuild() });
  }
  const orphanVectors = await parts.health.sweepOrphanVectors();
  if (orphanVectors > 0) did.push({ check: "vectors", did: `deleted ${orphanVectors} vector(s) that belonged to no chunk` });
  if ((await recordedIdentity(parts.store)) && (await parts.health.vectorCoverage()).missing > 0) {
    try {
      const written = await backfill(await loadRecordedProvider(parts));
      did.push({ check: "vectors", did: `embedded ${written} chunk(s) that had no vector` });
    } catch (err) {
      did.push({ check: "vectors", did: `did not embed the chunks without a vector: ${toGroundkitError(err).message}` });
    }
  }
  const index = await parts.store.vectorIndexStatus();
  if (index.kind === "hnsw" && (await parts.health.damagedVectorIndexFiles()).length > 0) {
    const after = await parts.health.rebuildVectorIndex();
    did.push({ check: "vector-index", did: `rebuilt the damaged HNSW index (${after.indexed_vectors} vectors, ${after.state})` });
  } else if (index.kind === "hnsw" && (index.state !== "current" || index.rerank_vectors === false)) {
    const after = await parts.store.syncVectorIndex();
    did.push({ check: "vector-index", did: `saved the HNSW index (${after.indexed_vectors} vectors, ${after.state})` });
  }
  const strays = await parts.snapshots.sweep(async (id) => (await parts.store.getDocument(id))?.source_class === "snapshot");
  if (strays > 0) did.push({ check: "snapshots", did: `removed ${strays} file(s) that belonged to no snapshot document` });
  return did;
}

/**
 * A fuzz case as plain data: the documents (with their models), the chunker
 * settings, the mutation kind and its random parameters. Generated from
 * (run seed, case index) alone, so any case replays exactly; plain data, so
 * the shrinker can simplify it and print it.
 */
import { classOf, DOC_KINDS, generateDoc, insertionText, type DocKind, type DocSpec } from "./corpus-gen.js";
import { MUTATION_KINDS, MUTATIONS, type MutationKind, type MutationParams } from "./mutations.js";
import { mixSeed, Rng } from "./rng.js";

/** Everything that determines a fuzz case. */
export interface CaseSpec {
  seed: number;
  index: number;
  kind: MutationKind;
  chunkSize: number;
  chunkOverlap: number;
  /** docs[0] is the target; the others are distractors (and controls). */
  docs: DocSpec[];
  params: MutationParams;
  /** Which API entry point verifies (verify, getChunk or search with verify), when the index is untouched. */
  via: number;
}

const CHUNKINGS: ReadonlyArray<[number, number]> = [
  [96, 0],
  [160, 16],
  [240, 40],
  [400, 60],
  [700, 0],
  [2400, 200],
];

/** A small pool of PDF documents per run, so PDFs are generated once and reused across cases. */
const PDF_POOL_SIZE = 24;
const pdfPools = new Map<number, DocSpec[]>();

function pdfPool(seed: number): DocSpec[] {
  let pool = pdfPools.get(seed);
  if (!pool) {
    pool = [];
    for (let i = 0; i < PDF_POOL_SIZE; i++) pool.push(generateDoc(new Rng(mixSeed(seed, 0x9df, i)), "pdf", "pdf", 500_000 + i));
    pdfPools.set(seed, pool);
  }
  return pool;
}

function docOf(rng: Rng, seed: number, kind: DocKind, name: string, markerId: number, usedPdfs: Set<number>): DocSpec {
  if (kind === "pdf") {
    let k = rng.int(0, PDF_POOL_SIZE);
    while (usedPdfs.has(k)) k = (k + 1) % PDF_POOL_SIZE;
    usedPdfs.add(k);
    const base = pdfPool(seed)[k]!;
    return { ...structuredClone(base), name, dir: rng.chance(0.3) ? "sub" : "" };
  }
  return generateDoc(rng, kind, name, markerId);
}

/** The case for (seed, index): kinds rotate so every kind gets its share. */
export function generateCase(seed: number, index: number): CaseSpec {
  const rng = new Rng(mixSeed(seed, index));
  const kind = MUTATION_KINDS[(index + (seed % MUTATION_KINDS.length)) % MUTATION_KINDS.length]!;
  const targetKind = rng.pick(MUTATIONS[kind].kinds);
  const used = new Set<number>();
  const docs: DocSpec[] = [docOf(rng, seed, targetKind, "doc0", mixSeed(seed, index, 0) % 1_000_000, used)];
  const distractors = rng.int(0, 3);
  for (let d = 1; d <= distractors; d++) {
    docs.push(docOf(rng, seed, rng.pick(DOC_KINDS), `doc${d}`, (mixSeed(seed, index, d) % 1_000_000) + d * 1_000_000, used));
  }
  // Kinds that need text before or after the cited span get documents cut into several chunks.
  const [chunkSize, chunkOverlap] = rng.pick(MUTATIONS[kind].accepts ? CHUNKINGS.slice(0, 4) : CHUNKINGS);
  return {
    seed,
    index,
    kind,
    chunkSize,
    chunkOverlap,
    docs,
    params: { variant: rng.float(), pick: rng.float(), a: rng.float(), b: rng.float(), c: rng.float(), text: insertionText(rng, targetKind) },
    via: rng.float(),
  };
}

/** One line describing a case, for reports. */
export function describeSpec(spec: CaseSpec): string {
  const docs = spec.docs.map((d) => `${d.kind}${d.dir ? ` in ${d.dir}/` : ""} (${classOf(d.kind)})`).join(", ");
  return `case ${spec.index} (seed ${spec.seed}): ${spec.kind} on ${docs}; chunks ${spec.chunkSize}/${spec.chunkOverlap}`;
}

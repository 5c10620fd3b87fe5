/**
 * Verification throughput: citations re-verified per second through
 * `Collection.verify`, per source class.
 *
 * - text: citations of the main benchmark collection (re-read the file,
 *   normalize, slice, hash);
 * - extracted: generated PDFs (pdf-lib), ingested and verified (each check
 *   re-runs the PDF extractor on the file);
 * - snapshot: generated HTML pages served on 127.0.0.1, ingested as URLs with
 *   `allowPrivateNetwork` and verified (each check re-reads the stored snapshot,
 *   never the network).
 * Citations come from real searches (top 100 of the query mix), so they are
 * what a user would hold.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { openCollection, type Citation, type Collection } from "../src/index.js";
import { generateDocument, mulberry32, vocabulary } from "./corpus.js";
import { round, since } from "./measure.js";
import type { CollectionRef } from "./ours.js";
import { buildQueries } from "./queries.js";

/** Arguments of {@link verifyTask}. */
export interface VerifyArgs {
  /** The main (text) benchmark collection. */
  text: CollectionRef;
  /** Scratch folder for the PDF corpus. */
  workDir: string;
  /** Index dir for the extracted and snapshot collections. */
  indexDir: string;
  /** How many text citations to verify. */
  textCitations: number;
  pdfs: number;
  /** Pages per PDF. */
  pages: number;
  /** Web pages served and ingested as snapshots. */
  urls: number;
}

/** Throughput for one source class. */
export interface ClassThroughput {
  citations: number;
  duration_ms: number;
  per_second: number;
  verdicts: Record<string, number>;
  /** How the verified sources were made (ingest of this class, for context). */
  sources: number;
  ingest_ms?: number;
}

/** What {@link verifyTask} measured. */
export interface VerifyResult {
  text: ClassThroughput;
  extracted: ClassThroughput;
  snapshot: ClassThroughput;
}

/** Measure verification throughput for every source class. */
export async function verifyTask(args: VerifyArgs): Promise<VerifyResult> {
  const text = await withCollection(args.text, async (col) => {
    const docs = (await col.status()).documents;
    return timeVerify(col, await gatherCitations(col, args.textCitations, docs), docs);
  });

  const pdfDir = join(args.workDir, "pdf");
  mkdirSync(pdfDir, { recursive: true });
  for (let i = 0; i < args.pdfs; i++) writeFileSync(join(pdfDir, `report-${i}.pdf`), await makePdf(i, args.pages));
  const pdfRef = { indexDir: args.indexDir, collection: "bench-pdf" };
  const extracted = await withCollection({ ...pdfRef, create: true }, async (col) => {
    const t0 = performance.now();
    const summary = await col.ingest([pdfDir]);
    const ingestMs = since(t0);
    if (summary.failed.length > 0) throw new Error(`PDF ingest failed: ${JSON.stringify(summary.failed[0])}`);
    const res = await timeVerify(col, await gatherCitations(col, 10_000, args.pdfs), args.pdfs);
    return { ...res, ingest_ms: round(ingestMs, 1) };
  });

  const server = createServer((req, res) => {
    const m = /^\/doc\/(\d+)$/.exec(req.url ?? "");
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(markdownToHtml(generateDocument(Number(m[1]))));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const urls = Array.from({ length: args.urls }, (_, i) => `http://127.0.0.1:${port}/doc/${i}`);
    const webRef = { indexDir: args.indexDir, collection: "bench-web" };
    const snapshot = await withCollection({ ...webRef, create: true }, async (col) => {
      const t0 = performance.now();
      const summary = await col.ingest(urls, { allowPrivateNetwork: true });
      const ingestMs = since(t0);
      if (summary.failed.length > 0) throw new Error(`URL ingest failed: ${JSON.stringify(summary.failed[0])}`);
      const res = await timeVerify(col, await gatherCitations(col, 10_000, args.urls), args.urls);
      return { ...res, ingest_ms: round(ingestMs, 1) };
    });
    return { text, extracted, snapshot };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function withCollection<T>(ref: CollectionRef & { create?: boolean }, fn: (col: Collection) => Promise<T>): Promise<T> {
  const col = await openCollection(ref);
  try {
    return await fn(col);
  } finally {
    await col.close();
  }
}

/** Unique citations from searches over the query mix (top 100 each), up to `limit`. */
async function gatherCitations(col: Collection, limit: number, documents: number): Promise<Citation[]> {
  const seen = new Map<string, Citation>();
  for (const q of buildQueries({ short: 400, long12: 0, paragraph: 0 }, documents, 11)) {
    for (const hit of await col.search(q.text, { topK: 100 })) {
      if (!seen.has(hit.chunk_id)) seen.set(hit.chunk_id, hit.citation);
      if (seen.size >= limit) return [...seen.values()];
    }
  }
  return [...seen.values()];
}

async function timeVerify(col: Collection, citations: readonly Citation[], sources: number): Promise<ClassThroughput> {
  if (citations.length === 0) throw new Error(`no citations to verify in collection '${col.name}'`);
  const verdicts: Record<string, number> = {};
  const t0 = performance.now();
  for (const c of citations) {
    const v = await col.verify(c);
    verdicts[v.verdict] = (verdicts[v.verdict] ?? 0) + 1;
  }
  const ms = since(t0);
  return { citations: citations.length, duration_ms: round(ms, 1), per_second: round(citations.length / (ms / 1000), 1), verdicts, sources };
}

/** A generated multi-page PDF: ~12 lines of Zipf-distributed words per page. */
async function makePdf(i: number, pages: number): Promise<Uint8Array> {
  const v = vocabulary();
  const rand = mulberry32(500_000 + i);
  const doc = await PDFDocument.create();
  const fixed = new Date(Date.UTC(2020, 0, 1));
  doc.setCreationDate(fixed);
  doc.setModificationDate(fixed);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([595, 842]);
    let y = 800;
    for (let l = 0; l < 12; l++) {
      const words: string[] = [];
      for (let w = 0; w < 9; w++) words.push(v.sample(rand));
      page.drawText(words.join(" "), { x: 40, y, size: 11, font });
      y -= 18;
    }
  }
  return doc.save();
}

/** Just enough Markdown → HTML for generated documents (headings, lists, code, quotes, paragraphs). */
export function markdownToHtml(md: string): string {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const body = md
    .replace(/^---\n[\s\S]*?\n---\n/, "")
    .split("\n\n")
    .map((block) => {
      if (block.startsWith("## ")) return `<h2>${esc(block.slice(3))}</h2>`;
      if (block.startsWith("# ")) return `<h1>${esc(block.slice(2))}</h1>`;
      if (block.startsWith("```")) return `<pre><code>${esc(block.split("\n").slice(1, -1).join("\n"))}</code></pre>`;
      if (block.startsWith("> ")) return `<blockquote><p>${esc(block.slice(2))}</p></blockquote>`;
      if (/^(-|\d+\.) /.test(block)) {
        return `<ul>${block
          .split("\n")
          .map((li) => `<li>${esc(li.replace(/^(-|\d+\.) /, ""))}</li>`)
          .join("")}</ul>`;
      }
      return `<p>${esc(block)}</p>`;
    })
    .join("\n");
  return `<!doctype html><html><head><title>Generated page</title></head><body>${body}</body></html>`;
}

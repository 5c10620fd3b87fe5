/**
 * The crash torture's corpus: documents of every class, each in three
 * versions, so every ingest run flips some of them and a killed run leaves a
 * mix. Markdown (many small, a few megabyte-sized ones that make chunking and
 * the replacing transaction take long enough to be hit), PDFs, HTML, and URL
 * pages served by a local server (one large, so writing its snapshot takes
 * time too).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generatedDoc, mulberry32 } from "../test/support/corpus.js";
import { makePdf } from "../test/support/pdf-fixtures.js";
import { PageServer } from "./world.js";

/** Versions every document cycles through. */
export const VERSIONS = [1, 2, 3] as const;

/** One torture document. */
export interface TortureDoc {
  /** Stable key: path relative to the docs dir, or the URL path. */
  key: string;
  kind: "md" | "big-md" | "pdf" | "html" | "url-md" | "url-big" | "url-html";
  /** Bytes of each version. */
  versions: Map<number, Uint8Array>;
}

/** Sizes of the corpus (kept small by the tests, larger by the CLI). */
export interface CorpusSize {
  small: number;
  big: number;
  /** Approximate size of each big document, bytes. */
  bigBytes: number;
}

function bigMarkdown(i: number, version: number, bytes: number): string {
  const rand = mulberry32(i * 104729 + version);
  const parts: string[] = [`# Big document ${i} v${version}`, ""];
  let size = 0;
  for (let s = 0; size < bytes; s++) {
    const para = generatedDoc(i * 1000 + s, version, mulberry32(Math.floor(rand() * 2 ** 31)));
    parts.push(`## Part ${s}`, "", para);
    size += para.length + 12;
  }
  return parts.join("\n");
}

function html(i: number, version: number): string {
  const rand = mulberry32(i * 31 + version);
  const paras = Array.from({ length: 5 + Math.floor(rand() * 10) }, (_, k) => `<p>${generatedDoc(i * 50 + k, version).replace(/[#\n]+/g, " ")}</p>`);
  return `<!doctype html><html><head><meta charset="utf-8"><title>Page ${i}</title></head><body><h1>Page ${i} v${version}</h1>${paras.join("\n")}</body></html>`;
}

async function pdf(i: number, version: number): Promise<Uint8Array> {
  const rand = mulberry32(i * 13 + version);
  const words = generatedDoc(i * 77, version).replace(/[#\n.]+/g, " ").split(/\s+/).filter(Boolean);
  const pages: string[][] = [];
  for (let p = 0; p < 2 + Math.floor(rand() * 3); p++) {
    const lines: string[] = [];
    for (let l = 0; l < 12; l++) lines.push(words.slice((p * 12 + l) * 6, (p * 12 + l) * 6 + 6).join(" ") || `filler ${p} ${l} v${version}`);
    pages.push(lines);
  }
  return makePdf(pages);
}

const enc = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "utf8"));

/** Build every document's versions. */
export async function buildTortureCorpus(size: CorpusSize): Promise<TortureDoc[]> {
  const docs: TortureDoc[] = [];
  const add = async (key: string, kind: TortureDoc["kind"], make: (v: number) => Uint8Array | Promise<Uint8Array>) => {
    const versions = new Map<number, Uint8Array>();
    for (const v of VERSIONS) versions.set(v, await make(v));
    docs.push({ key, kind, versions });
  };
  for (let i = 0; i < size.small; i++) await add(`notes/part${i % 4}/doc${i}.md`, "md", (v) => enc(generatedDoc(i, v)));
  for (let i = 0; i < size.big; i++) await add(`big/big${i}.md`, "big-md", (v) => enc(bigMarkdown(i, v, size.bigBytes)));
  for (let i = 0; i < 2; i++) await add(`pdf/manual${i}.pdf`, "pdf", (v) => pdf(i, v));
  for (let i = 0; i < 3; i++) await add(`html/page${i}.html`, "html", (v) => enc(html(i, v)));
  for (let i = 0; i < 2; i++) await add(`/web/note${i}.md`, "url-md", (v) => enc(generatedDoc(900 + i, v)));
  await add(`/web/big.md`, "url-big", (v) => enc(bigMarkdown(99, v, size.bigBytes * 2)));
  for (let i = 0; i < 2; i++) await add(`/web/page${i}.html`, "url-html", (v) => enc(html(50 + i, v)));
  return docs;
}

/** Whether a document is a URL page (its key is the URL path). */
export function isUrlDoc(doc: TortureDoc): boolean {
  return doc.key.startsWith("/");
}

/** Put every document at its version: files under `docsDir`, pages on the server. */
export function placeCorpus(docs: TortureDoc[], versions: Map<string, number>, docsDir: string, server: PageServer): void {
  for (const doc of docs) {
    const bytes = doc.versions.get(versions.get(doc.key)!)!;
    if (isUrlDoc(doc)) {
      server.set(doc.key, doc.kind === "url-html" ? "text/html; charset=utf-8" : "text/markdown; charset=utf-8", bytes);
    } else {
      const file = join(docsDir, doc.key);
      mkdirSync(join(file, ".."), { recursive: true });
      writeFileSync(file, bytes);
    }
  }
}

/** The source a document is recorded under. */
export function sourceOf(doc: TortureDoc, docsDir: string, server: PageServer): string {
  return isUrlDoc(doc) ? server.base + doc.key : join(docsDir, doc.key);
}

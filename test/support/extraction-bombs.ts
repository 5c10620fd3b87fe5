/**
 * Inputs that cost an extractor far more than their size: the red-team's
 * reproductions for extraction limits (issue 12, item 5), generated on the fly.
 */
import { createDeflate } from "node:zlib";

/** `count` unclosed `<div>`s (5 bytes each) around one word: 400,000 make the red-team's 2 MB file. */
export function nestedDivs(count: number): Uint8Array {
  return new TextEncoder().encode(`<!doctype html><title>deep</title>${"<div>".repeat(count)}bottom`);
}

/** zlib-deflated zeros, `mib` MiB of them, compressed chunk by chunk so the test never holds them inflated. */
async function deflatedZeros(mib: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => out.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    deflate.on("end", resolve);
    deflate.on("error", reject);
  });
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < mib; i++) {
    if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end();
  await finished;
  return Buffer.concat(out);
}

/**
 * A valid one-page PDF whose content stream is a FlateDecode stream of `mib`
 * MiB of zero bytes (whitespace to a PDF content parser): about 1 KiB of file
 * per MiB inflated.
 */
export async function inflatingPdf(mib: number): Promise<Uint8Array> {
  const stream = await deflatedZeros(mib);
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const add = (part: Buffer | string): void => {
    const buf = typeof part === "string" ? Buffer.from(part, "latin1") : part;
    parts.push(buf);
    length += buf.length;
  };
  const object = (n: number, body: string): void => {
    offsets[n] = length;
    add(`${n} 0 obj\n${body}\nendobj\n`);
  };
  add("%PDF-1.4\n");
  object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  object(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>");
  offsets[4] = length;
  add(`4 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`);
  add(stream);
  add("\nendstream\nendobj\n");
  const xref = length;
  const entries = offsets.slice(1).map((o) => `${String(o).padStart(10, "0")} 00000 n \n`);
  add(`xref\n0 5\n0000000000 65535 f \n${entries.join("")}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.concat(parts));
}

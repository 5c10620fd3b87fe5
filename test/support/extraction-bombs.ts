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

/**
 * A small valid PDF that is slow to extract: form XObject `Fk` draws `F(k-1)`
 * twice, down to `F0` drawing one letter, and the page draws `F<depth>`, so
 * the parser walks 2^depth forms (the red-team's 9.5 KB file took ~12 s).
 * Each extra level doubles the time; the text is 2^depth letters.
 */
export function nestedFormsPdf(depth: number): Uint8Array {
  const parts: string[] = [];
  const offsets: number[] = [];
  let length = 0;
  const add = (part: string): void => {
    parts.push(part);
    length += Buffer.byteLength(part, "latin1");
  };
  const object = (n: number, body: string): void => {
    offsets[n] = length;
    add(`${n} 0 obj\n${body}\nendobj\n`);
  };
  const stream = (n: number, dict: string, content: string): void =>
    object(n, `<< ${dict} /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`);
  // Objects: 1 catalog, 2 pages, 3 page, 4 font, 5 page content, 6.. forms F0..Fdepth.
  const form = (k: number): number => 6 + k;
  add("%PDF-1.4\n");
  object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  object(3, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 5 0 R /Resources << /XObject << /F ${form(depth)} 0 R >> >> >>`);
  object(4, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  stream(5, "", "q /F Do Q");
  stream(form(0), "/Type /XObject /Subtype /Form /BBox [0 0 200 200] /Resources << /Font << /H 4 0 R >> >>", "BT /H 12 Tf 10 10 Td (x) Tj ET");
  for (let k = 1; k <= depth; k++) {
    stream(form(k), `/Type /XObject /Subtype /Form /BBox [0 0 200 200] /Resources << /XObject << /G ${form(k - 1)} 0 R >> >>`, "q /G Do Q q /G Do Q");
  }
  const count = form(depth) + 1;
  const xref = length;
  const entries = offsets.slice(1).map((o) => `${String(o).padStart(10, "0")} 00000 n \n`);
  add(`xref\n0 ${count}\n0000000000 65535 f \n${entries.join("")}trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.from(parts.join(""), "latin1"));
}

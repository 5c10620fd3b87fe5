/**
 * Read a safetensors file (8-byte little-endian header length, a JSON header
 * of `name → {dtype, shape, data_offsets}`, then the raw data) into float32
 * arrays. fp16 is widened exactly (every half is representable in a float).
 */
import { GroundkitError } from "../../core/errors.js";

/** One tensor as float32, row-major. */
export interface FloatTensor {
  shape: number[];
  data: Float32Array;
}

interface HeaderEntry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

/** IEEE half → float, bit-exact (subnormals, infinities, NaN included). */
function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac === 0 ? sign * Infinity : NaN;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

let halfTable: Float32Array | undefined;

function widenHalf(bytes: Uint8Array): Float32Array {
  if (halfTable === undefined) {
    halfTable = new Float32Array(65536);
    for (let i = 0; i < 65536; i++) halfTable[i] = halfToFloat(i);
  }
  const table = halfTable;
  // `bytes` is a fresh copy (offset 0), so a Uint16Array view is aligned; safetensors is little-endian, as is every platform we run on.
  const halves = new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
  const out = new Float32Array(halves.length);
  for (let i = 0; i < halves.length; i++) out[i] = table[halves[i]!]!;
  return out;
}

/**
 * Parse every floating-point tensor (F16 or F32) of a safetensors buffer;
 * integer tensors (e.g. BERT's position_ids buffer) are skipped.
 *
 * @throws GroundkitError EMBEDDING_FAILED for a truncated or malformed file
 */
export function readSafetensors(buf: Uint8Array, source: string): Map<string, FloatTensor> {
  const bad = (why: string): GroundkitError =>
    new GroundkitError("EMBEDDING_FAILED", `The weights file ${source} is not valid safetensors: ${why}. Reinstall the model package.`);
  if (buf.byteLength < 8) throw bad("it is shorter than its header");
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (headerLength > buf.byteLength - 8) throw bad("the header runs past the end");
  let header: Record<string, HeaderEntry | Record<string, string>>;
  try {
    header = JSON.parse(new TextDecoder().decode(buf.subarray(8, 8 + headerLength))) as typeof header;
  } catch {
    throw bad("the header is not JSON");
  }
  const base = 8 + headerLength;
  const out = new Map<string, FloatTensor>();
  for (const [name, entry] of Object.entries(header)) {
    if (name === "__metadata__") continue;
    const { dtype, shape, data_offsets: [start, end] } = entry as HeaderEntry;
    if (dtype !== "F16" && dtype !== "F32") continue;
    if (base + end > buf.byteLength || start > end) throw bad(`tensor ${name} runs past the end`);
    const bytes = buf.slice(base + start, base + end);
    const data = dtype === "F16" ? widenHalf(bytes) : new Float32Array(bytes.buffer, 0, bytes.byteLength / 4);
    if (data.length !== shape.reduce((a, b) => a * b, 1)) throw bad(`tensor ${name} has the wrong size for its shape`);
    out.set(name, { shape, data });
  }
  return out;
}

/**
 * A minimal ZIP writer (PKWARE APPNOTE 4.3: local headers, central directory,
 * end record; stored or deflated entries) for building office packages and
 * hostile ones in tests. Each entry may lie about itself, which is the point
 * of the hostile ones: a declared size, an encryption flag.
 */
import { crc32, deflateRawSync } from "node:zlib";

export interface ZipEntry {
  name: string;
  data: Uint8Array | string;
  /** Store instead of deflate (ODF and EPUB store their `mimetype`). */
  store?: boolean;
  /** Already deflated bytes to write as they are (with `size` the inflated size declared). */
  raw?: { deflated: Uint8Array; size: number; crc: number };
  /** Declare this uncompressed size in the central directory instead of the true one. */
  declaredSize?: number;
  /** Set general-purpose bit 0 (the entry claims to be encrypted). */
  encryptedFlag?: boolean;
}

/** The bytes of a ZIP archive holding `entries` in order. */
export function zipOf(entries: readonly ZipEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const data = typeof entry.data === "string" ? Buffer.from(entry.data, "utf8") : Buffer.from(entry.data);
    const method = entry.raw ? 8 : entry.store ? 0 : 8;
    const body = entry.raw ? Buffer.from(entry.raw.deflated) : entry.store ? data : deflateRawSync(data);
    const size = entry.raw ? entry.raw.size : data.length;
    const crc = entry.raw ? entry.raw.crc : crc32(data);
    const flags = 0x0800 | (entry.encryptedFlag ? 1 : 0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(entry.declaredSize ?? size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

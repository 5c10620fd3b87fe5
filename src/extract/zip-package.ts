/**
 * Reading an office package (a ZIP container: OOXML, ODF, EPUB) with yauzl,
 * bounded before anything is inflated (docs/decisions/0022-office-documents.md).
 *
 * The central directory is read first and judged on what it declares: more than
 * {@link ZIP_MAX_ENTRIES} entries, a part we read declaring more than
 * {@link ZIP_MAX_PART_BYTES}, parts read declaring more than
 * {@link ZIP_MAX_TOTAL_BYTES} together, or a part over 1 MiB inflating more
 * than {@link ZIP_MAX_RATIO} times its compressed size are each
 * `EXTRACTION_LIMIT`. Declarations are then enforced: yauzl stops a stream
 * that inflates past its declared size, which is refused the same way. Only the
 * parts the extractor needs are ever inflated (images and media never are), and
 * each is streamed: nothing holds a whole part unless the caller asks for it.
 * An entry with the encryption flag is `DOCUMENT_ENCRYPTED`; two entries with
 * one name are refused, since readers would disagree about which one counts.
 */
import { TextDecoder } from "node:util";
import { fromBufferPromise, type Entry, type ZipFile } from "yauzl";
import { GroundkitError } from "../core/errors.js";
import { extractionLimit } from "./limits.js";
import { startXmlWalk, type XmlVisitor } from "./xml-walk.js";

/** The most entries a package may have (a large deck or e-book has a few thousand). */
export const ZIP_MAX_ENTRIES = 10_000;
/** The largest declared size of one part we read: 512 MiB. */
export const ZIP_MAX_PART_BYTES = 512 * 1024 * 1024;
/** The most declared bytes of all the parts one extraction reads: 1 GiB. */
export const ZIP_MAX_TOTAL_BYTES = 1024 * 1024 * 1024;
/** The highest inflated-to-compressed ratio of a part over {@link ZIP_RATIO_FLOOR_BYTES}: twice Apache POI's threshold (ADR 0022). */
export const ZIP_MAX_RATIO = 200;
/** Parts smaller than this are never judged by their ratio: they cannot cost much whatever it is. */
export const ZIP_RATIO_FLOOR_BYTES = 1024 * 1024;

const MIB = 1024 * 1024;

/** An opened package: its entry names, and bounded reads of its parts. */
export class ZipPackage {
  private readBytes = 0;

  private constructor(
    private readonly zip: ZipFile,
    private readonly entries: ReadonlyMap<string, Entry>,
    private readonly label: string | undefined,
  ) {}

  /**
   * Open `bytes` as a ZIP package and check its central directory.
   *
   * @throws GroundkitError `EXTRACTION_FAILED` (not a ZIP, damaged, duplicate names),
   *   `EXTRACTION_LIMIT` (limit "entries"), `DOCUMENT_ENCRYPTED` (an encrypted entry).
   */
  static async open(bytes: Uint8Array, label: string | undefined): Promise<ZipPackage> {
    let zip: ZipFile;
    try {
      zip = await fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
        lazyEntries: true,
        validateEntrySizes: true,
        strictFileNames: false,
      });
    } catch (err) {
      throw new GroundkitError("EXTRACTION_FAILED", `${subject(label)} is not a readable ZIP package: ${messageOf(err)}.`, undefined, { cause: err });
    }
    if (zip.entryCount > ZIP_MAX_ENTRIES) {
      zip.close();
      throw extractionLimit("entries", `stopped: the package has ${zip.entryCount} entries, more than ${ZIP_MAX_ENTRIES} (the entry limit)`, label, {
        maxEntries: ZIP_MAX_ENTRIES,
      });
    }
    const entries = new Map<string, Entry>();
    try {
      for await (const entry of zip.eachEntry()) {
        if (entries.has(entry.fileName)) {
          throw new GroundkitError("EXTRACTION_FAILED", `${subject(label)} has two entries named ${entry.fileName}; refused as ambiguous.`);
        }
        if (entry.isEncrypted()) {
          throw new GroundkitError("DOCUMENT_ENCRYPTED", `${subject(label)} is encrypted (entry ${entry.fileName}); its text cannot be read.`);
        }
        entries.set(entry.fileName, entry);
      }
    } catch (err) {
      zip.close();
      if (err instanceof GroundkitError) throw err;
      throw new GroundkitError("EXTRACTION_FAILED", `${subject(label)} is not a readable ZIP package: ${messageOf(err)}.`, undefined, { cause: err });
    }
    return new ZipPackage(zip, entries, label);
  }

  /** Entry names in central-directory order. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Release the package (the bytes stay the caller's). */
  close(): void {
    this.zip.close();
  }

  /** The whole part `name` decoded as text (for small parts: content types, relationships, manifests). */
  async readText(name: string): Promise<string> {
    let text = "";
    await this.stream(name, (chunk) => {
      text += chunk;
    });
    return text;
  }

  /** Walk part `name` as XML, streaming, reporting to `visitor`. */
  async walkXml(name: string, visitor: XmlVisitor): Promise<void> {
    const walk = startXmlWalk(visitor, name, this.label);
    await this.stream(name, (chunk) => walk.write(chunk));
    walk.end();
  }

  /** Inflate part `name` within the limits, decoding it (UTF-8, or UTF-16 after its byte order mark) chunk by chunk. */
  private async stream(name: string, onText: (text: string) => void): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) throw new GroundkitError("EXTRACTION_FAILED", `${subject(this.label)} has no part ${name}.`, { part: name });
    this.checkDeclared(entry);
    let decoder: TextDecoder | undefined;
    try {
      const stream = await this.zip.openReadStreamPromise(entry);
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        decoder ??= decoderFor(chunk);
        const text = decoder.decode(chunk, { stream: true });
        if (text) onText(text);
      }
      const rest = (decoder ?? new TextDecoder()).decode();
      if (rest) onText(rest);
    } catch (err) {
      if (err instanceof GroundkitError) throw err;
      const message = messageOf(err);
      if (/too many bytes/i.test(message)) {
        throw extractionLimit("part-size", `stopped: part ${name} inflates past the size it declares`, this.label, { part: name });
      }
      if (err instanceof TypeError && (err as { code?: string }).code === "ERR_ENCODING_INVALID_ENCODED_DATA") {
        throw new GroundkitError("EXTRACTION_FAILED", `Part ${name} of ${subject(this.label)} is not valid UTF-8 text.`, { part: name }, { cause: err });
      }
      throw new GroundkitError("EXTRACTION_FAILED", `Part ${name} of ${subject(this.label)} could not be read: ${message}.`, { part: name }, { cause: err });
    }
  }

  /** Refuse a part by what it declares, before inflating a byte of it. */
  private checkDeclared(entry: Entry): void {
    const part = entry.fileName;
    if (entry.uncompressedSize > ZIP_MAX_PART_BYTES) {
      throw extractionLimit(
        "part-size",
        `stopped: part ${part} declares ${Math.ceil(entry.uncompressedSize / MIB)} MiB inflated, more than ${ZIP_MAX_PART_BYTES / MIB} MiB (the part limit)`,
        this.label,
        { part, maxPartBytes: ZIP_MAX_PART_BYTES },
      );
    }
    if (entry.uncompressedSize > ZIP_RATIO_FLOOR_BYTES && entry.uncompressedSize > ZIP_MAX_RATIO * Math.max(1, entry.compressedSize)) {
      const ratio = Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize));
      throw extractionLimit(
        "compression-ratio",
        `stopped: part ${part} inflates ${ratio} times its compressed size, more than ${ZIP_MAX_RATIO} (a ZIP bomb)`,
        this.label,
        { part, maxRatio: ZIP_MAX_RATIO },
      );
    }
    this.readBytes += entry.uncompressedSize;
    if (this.readBytes > ZIP_MAX_TOTAL_BYTES) {
      throw extractionLimit(
        "part-size",
        `stopped: its parts declare more than ${ZIP_MAX_TOTAL_BYTES / MIB} MiB inflated together (the package limit)`,
        this.label,
        { maxTotalBytes: ZIP_MAX_TOTAL_BYTES },
      );
    }
  }
}

function decoderFor(first: Uint8Array): TextDecoder {
  if (first[0] === 0xff && first[1] === 0xfe) return new TextDecoder("utf-16le", { fatal: true });
  if (first[0] === 0xfe && first[1] === 0xff) return new TextDecoder("utf-16be", { fatal: true });
  return new TextDecoder("utf-8", { fatal: true });
}

function subject(label: string | undefined): string {
  return label ?? "The document";
}

function messageOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\.$/, "");
}

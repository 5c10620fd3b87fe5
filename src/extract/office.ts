/**
 * The extractor for office documents and e-books: DOCX, PPTX, XLSX (OOXML),
 * ODT, ODP, ODS (OpenDocument) and EPUB, all ZIP packages, read with yauzl and
 * htmlparser2 in XML mode by our own readers (docs/decisions/0022-office-documents.md).
 *
 * The format comes from the bytes, never the file name: ODF and EPUB name it in
 * their `mimetype` entry, OOXML in `[Content_Types].xml`. Refused by name before
 * any text is read:
 * - an encrypted document: OOXML with a password is an OLE compound file holding
 *   an `EncryptedPackage` (not a ZIP at all), ODF lists `encryption-data` in its
 *   manifest, an EPUB with DRM has `rights.xml` or encrypted content, and any ZIP
 *   entry may carry the encryption flag (`DOCUMENT_ENCRYPTED`);
 * - a macro-enabled document: a VBA project part, a macro-enabled main content
 *   type (.docm, .xlsm, .pptm), or ODF Basic/script modules (`DOCUMENT_HAS_MACROS`);
 * - a ZIP bomb or an oversized or too deeply nested part (`EXTRACTION_LIMIT`,
 *   zip-package.ts and xml-walk.ts).
 *
 * The identity names both packages whose code decides the text:
 * `yauzl/<version>+htmlparser2/<version>`.
 */
import { GroundkitError } from "../core/errors.js";
import type { ExtractOptions, ExtractedText, Extractor } from "./extractor.js";
import { readDocx } from "./docx-reader.js";
import { readEpub } from "./epub-reader.js";
import { resolveExtractionLimits } from "./limits.js";
import { readOdfText } from "./odf-text-reader.js";
import { readOds } from "./ods-reader.js";
import { OfficeTextWriter } from "./office-text-writer.js";
import { readContentTypes } from "./ooxml-parts.js";
import { installedPackage } from "./package-identity.js";
import { readPackageTitle } from "./package-title.js";
import { readPptx } from "./pptx-reader.js";
import { readXlsx } from "./xlsx-reader.js";
import { attribute } from "./xml-walk.js";
import { ZipPackage } from "./zip-package.js";

/** The formats this extractor reads. */
export type OfficeFormat = "docx" | "pptx" | "xlsx" | "odt" | "odp" | "ods" | "epub";

/** The magic number of an OLE compound file (legacy .doc/.xls/.ppt, and every password-protected OOXML file). */
const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const ODF_MIMETYPES: Readonly<Record<string, OfficeFormat>> = {
  "application/vnd.oasis.opendocument.text": "odt",
  "application/vnd.oasis.opendocument.text-template": "odt",
  "application/vnd.oasis.opendocument.presentation": "odp",
  "application/vnd.oasis.opendocument.presentation-template": "odp",
  "application/vnd.oasis.opendocument.spreadsheet": "ods",
  "application/vnd.oasis.opendocument.spreadsheet-template": "ods",
  "application/epub+zip": "epub",
};

const OOXML_MAIN_TYPES: ReadonlyArray<[RegExp, OfficeFormat]> = [
  [/^application\/vnd\.openxmlformats-officedocument\.wordprocessingml\.(document|template)\.main\+xml$/, "docx"],
  [/^application\/vnd\.openxmlformats-officedocument\.presentationml\.(presentation|slideshow|template)\.main\+xml$/, "pptx"],
  [/^application\/vnd\.openxmlformats-officedocument\.spreadsheetml\.(sheet|template)\.main\+xml$/, "xlsx"],
];

/**
 * Build the office extractor; its identity is yauzl's and htmlparser2's installed versions.
 *
 * @example
 *   const office = await createOfficeExtractor();
 *   const { text, locations } = await office.extract(docxBytes, undefined, { label: "notes.docx" });
 * @throws Error when yauzl or htmlparser2 is missing.
 */
export async function createOfficeExtractor(): Promise<Extractor> {
  const identity = `${installedPackage("yauzl").identity}+${installedPackage("htmlparser2").identity}`;
  return new OfficeExtractor(identity);
}

class OfficeExtractor implements Extractor {
  readonly kind = "office" as const;

  constructor(readonly identity: string) {}

  async extract(bytes: Uint8Array, _hints?: unknown, options?: ExtractOptions): Promise<ExtractedText> {
    const { maxOutputCodePoints } = resolveExtractionLimits(options?.limits);
    const label = options?.label;
    refuseCompoundFile(bytes, label);
    const pkg = await ZipPackage.open(bytes, label);
    try {
      refuseMacroParts(pkg, label);
      const { format, main } = await detectFormat(pkg, label);
      const writer = new OfficeTextWriter(maxOutputCodePoints, label);
      let title: string | undefined;
      switch (format) {
        case "docx":
          await readDocx(pkg, main, writer);
          break;
        case "pptx":
          await readPptx(pkg, main, writer, label);
          break;
        case "xlsx":
          await readXlsx(pkg, main, writer, label);
          break;
        case "odt":
        case "odp":
          await readOdfText(pkg, format === "odt" ? "text" : "presentation", writer);
          break;
        case "ods":
          await readOds(pkg, writer, label);
          break;
        case "epub":
          title = await readEpub(pkg, writer, label, maxOutputCodePoints);
          break;
      }
      if (format !== "epub") title = await readPackageTitle(pkg, format === "odt" || format === "odp" || format === "ods" ? "meta.xml" : "docProps/core.xml");
      const { text, locations } = writer.finish();
      return title === undefined ? { text, locations } : { text, locations, title };
    } finally {
      pkg.close();
    }
  }
}

function refuseCompoundFile(bytes: Uint8Array, label: string | undefined): void {
  if (!CFB_MAGIC.every((b, i) => bytes[i] === b)) return;
  const subject = label ?? "The document";
  // The stream name as the compound file's directory stores it (UTF-16LE).
  if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(Buffer.from("EncryptedPackage", "utf16le"))) {
    throw new GroundkitError("DOCUMENT_ENCRYPTED", `${subject} is a password-protected Office document (an encrypted package); its text cannot be read.`);
  }
  throw new GroundkitError(
    "EXTRACTION_FAILED",
    `${subject} is a legacy binary Office file (an OLE compound file), which groundkit does not read; save it as .docx, .xlsx or .pptx.`,
  );
}

/** VBA projects (OOXML) and Basic or script modules (ODF) by part name. */
function refuseMacroParts(pkg: ZipPackage, label: string | undefined): void {
  for (const name of pkg.names()) {
    const lower = name.toLowerCase();
    const base = lower.slice(lower.lastIndexOf("/") + 1);
    const vba = base === "vbaproject.bin" || base === "vbadata.xml";
    // ODF keeps library indexes (script-lc.xml, dialog-lc.xml) even without macros; a module is anything else there.
    const odfModule = /^(basic|scripts)\/.+[^/]$/.test(lower) && !/^basic\/(script|dialog)-lc\.xml$/.test(lower);
    if (vba || odfModule) {
      throw new GroundkitError("DOCUMENT_HAS_MACROS", `${label ?? "The document"} contains macros (${name}); macro-enabled documents are refused.`, {
        part: name,
      });
    }
  }
}

async function detectFormat(pkg: ZipPackage, label: string | undefined): Promise<{ format: OfficeFormat; main: string }> {
  const subject = label ?? "The document";
  if (pkg.has("mimetype")) {
    const mimetype = (await pkg.readText("mimetype")).trim();
    const format = Object.hasOwn(ODF_MIMETYPES, mimetype) ? ODF_MIMETYPES[mimetype] : undefined;
    if (format === undefined) {
      throw new GroundkitError("EXTRACTION_FAILED", `${subject} is a ZIP package of type ${JSON.stringify(mimetype.slice(0, 100))}, not an office document or e-book groundkit reads.`);
    }
    if (format !== "epub") {
      await refuseEncryptedOdf(pkg, subject);
      if (!pkg.has("content.xml")) throw new GroundkitError("EXTRACTION_FAILED", `${subject} has no content.xml.`);
    }
    return { format, main: format === "epub" ? "" : "content.xml" };
  }
  if (pkg.has("[Content_Types].xml")) {
    const types = await readContentTypes(pkg);
    for (const [part, type] of types) {
      if (/macroenabled|vbaproject/i.test(type)) {
        throw new GroundkitError("DOCUMENT_HAS_MACROS", `${subject} is macro-enabled (${part} is ${type}); macro-enabled documents are refused.`, { part });
      }
    }
    for (const [part, type] of types) {
      const match = OOXML_MAIN_TYPES.find(([re]) => re.test(type));
      if (match && pkg.has(part)) return { format: match[1], main: part };
    }
    throw new GroundkitError("EXTRACTION_FAILED", `${subject} is an Open XML package without a Word, PowerPoint or Excel main part.`);
  }
  throw new GroundkitError("EXTRACTION_FAILED", `${subject} is a ZIP file but not an office document or e-book (no mimetype or [Content_Types].xml).`);
}

/** ODF encryption is declared per file in the manifest. */
async function refuseEncryptedOdf(pkg: ZipPackage, subject: string): Promise<void> {
  if (!pkg.has("META-INF/manifest.xml")) return;
  let encrypted: string | undefined;
  let entry: string | undefined;
  await pkg.walkXml("META-INF/manifest.xml", {
    open(name, attrs) {
      if (name === "file-entry") entry = attribute(attrs, "full-path");
      else if (name === "encryption-data") encrypted ??= entry ?? "a part";
    },
    close() {},
    text() {},
  });
  if (encrypted !== undefined) {
    throw new GroundkitError("DOCUMENT_ENCRYPTED", `${subject} is password-protected (${encrypted} is encrypted); its text cannot be read.`);
  }
}

/**
 * Hostile office packages for the extraction limits of ZIP containers (issue 27):
 * bombs, oversized and deeply nested parts, encrypted and macro-enabled
 * documents. Each is built on the fly from a valid minimal .docx, .pptx, .odt
 * or .epub, so what the extractor refuses is exactly the hostile trait.
 */
import { crc32, deflateRawSync } from "node:zlib";
import { docxEntries, epubEntries, pptxEntries, wordParagraph } from "./office-fixtures.js";
import { zipOf, type ZipEntry } from "./zip-writer.js";

const MIB = 1024 * 1024;

/** A .docx whose `word/document.xml` is `mib` MiB of zeros-like XML whitespace: ratio about 1000. */
export function ratioBombDocx(mib: number): Uint8Array {
  const body = Buffer.alloc(mib * MIB, 0x20);
  const entries = docxEntries(wordParagraph("bomb"));
  const doc = entries.find((e) => e.name === "word/document.xml")!;
  const xml = Buffer.concat([Buffer.from(String(doc.data).replace("</w:body>", "")), body, Buffer.from("</w:body></w:document>")]);
  Object.assign(doc, { raw: { deflated: deflateRawSync(xml, { level: 9 }), size: xml.length, crc: crc32(xml) } });
  return zipOf(entries);
}

/** A .docx with `count` extra (empty) entries besides its parts. */
export function manyEntriesDocx(count: number): Uint8Array {
  const extra: ZipEntry[] = Array.from({ length: count }, (_, i) => ({ name: `customXml/item${i}.xml`, data: "", store: true }));
  return zipOf([...docxEntries(wordParagraph("crowded")), ...extra]);
}

/** A .docx whose main part declares `bytes` uncompressed bytes in the central directory (it holds a few hundred). */
export function hugeDeclaredDocx(bytes: number): Uint8Array {
  const entries = docxEntries(wordParagraph("small but claims to be huge"));
  entries.find((e) => e.name === "word/document.xml")!.declaredSize = bytes;
  return zipOf(entries);
}

/** A .docx whose main part inflates to far more than the size it declares (a lying entry). */
export function understatedDocx(): Uint8Array {
  const entries = docxEntries(wordParagraph("understated ".repeat(20_000)));
  entries.find((e) => e.name === "word/document.xml")!.declaredSize = 1000;
  return zipOf(entries);
}

/** A .docx whose body nests `depth` elements (`w:sdt` content controls) around one paragraph. */
export function deeplyNestedDocx(depth: number): Uint8Array {
  return zipOf(docxEntries(`${"<w:sdt><w:sdtContent>".repeat(depth / 2)}${wordParagraph("deep")}${"</w:sdtContent></w:sdt>".repeat(depth / 2)}`));
}

/** A .docx of `paragraphs` paragraphs of prose (a large but honest part). */
export function longDocx(paragraphs: number): Uint8Array {
  const body: string[] = [];
  for (let i = 0; i < paragraphs; i++) body.push(wordParagraph(`Paragraph ${i} records the stake readings of the survey team at the glacier front.`));
  return zipOf(docxEntries(body.join("")));
}

/**
 * An OLE compound file as Office writes a password-protected .docx: the header
 * magic and a directory naming the `EncryptedPackage` stream (UTF-16LE).
 */
export function encryptedOoxml(): Uint8Array {
  const file = Buffer.alloc(4096);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(file, 0);
  Buffer.from("EncryptionInfo", "utf16le").copy(file, 1024);
  Buffer.from("EncryptedPackage", "utf16le").copy(file, 1152);
  return new Uint8Array(file);
}

/** An .odt whose manifest says content.xml is encrypted (what a password-protected ODF file declares). */
export function encryptedOdt(): Uint8Array {
  return zipOf([
    { name: "mimetype", data: "application/vnd.oasis.opendocument.text", store: true },
    {
      name: "META-INF/manifest.xml",
      data:
        `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">` +
        `<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>` +
        `<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml" manifest:size="900">` +
        `<manifest:encryption-data manifest:checksum-type="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0#sha256-1k" manifest:checksum="AAAA">` +
        `<manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc" manifest:initialisation-vector="AAAA"/>` +
        `</manifest:encryption-data></manifest:file-entry></manifest:manifest>`,
    },
    // What an encrypted part holds: ciphertext, not XML.
    { name: "content.xml", data: Buffer.from(Array.from({ length: 900 }, (_, i) => (i * 131 + 7) % 256)) },
  ]);
}

/** A .docx whose main part carries the ZIP encryption flag (traditional PKWARE encryption). */
export function zipEncryptedDocx(): Uint8Array {
  const entries = docxEntries(wordParagraph("secret"));
  entries.find((e) => e.name === "word/document.xml")!.encryptedFlag = true;
  return zipOf(entries);
}

/** A macro-enabled deck (.pptm): the macro-enabled main content type and a VBA project. */
export function macroPptm(): Uint8Array {
  return zipOf([
    ...pptxEntries([{ title: "Quarterly macros", bullets: ["Runs on open."] }], { macroEnabled: true }),
    { name: "ppt/vbaProject.bin", data: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) },
  ]);
}

/** A .docx (ordinary content type, renamed from .docm) that still carries a VBA project part. */
export function docxWithVbaProject(): Uint8Array {
  return zipOf([...docxEntries(wordParagraph("looks harmless")), { name: "word/vbaProject.bin", data: Buffer.from("VBA") }]);
}

/** An .odt with a LibreOffice Basic module. */
export function odtWithBasicMacro(): Uint8Array {
  return zipOf([
    { name: "mimetype", data: "application/vnd.oasis.opendocument.text", store: true },
    {
      name: "content.xml",
      data: `<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text><text:p>Hello</text:p></office:text></office:body></office:document-content>`,
    },
    { name: "Basic/script-lc.xml", data: "<library:libraries/>" },
    { name: "Basic/Standard/Module1.xml", data: '<script:module script:name="Module1">Sub Main\nShell("calc")\nEnd Sub</script:module>' },
  ]);
}

/** An EPUB whose chapter is encrypted (DRM), as META-INF/encryption.xml declares. */
export function drmEpub(): Uint8Array {
  return zipOf([
    ...epubEntries("Locked", [{ title: "One", bodyHtml: "<p>ciphertext</p>" }]),
    {
      name: "META-INF/encryption.xml",
      data:
        `<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">` +
        `<enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/>` +
        `<enc:CipherData><enc:CipherReference URI="OEBPS/text/ch1.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>`,
    },
  ]);
}

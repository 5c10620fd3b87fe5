/**
 * Small office packages written to the specs (ECMA-376 OPC and PresentationML /
 * WordprocessingML, EPUB 3), for tests that need a document in a precise shape:
 * a deck whose slides move, an e-book with several chapters, the base of the
 * hostile packages. The committed fixtures under test/fixtures/office/ are
 * real files written by LibreOffice.
 */
import { zipOf, type ZipEntry } from "./zip-writer.js";

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const PML = "http://schemas.openxmlformats.org/presentationml/2006/main";
const DML = "http://schemas.openxmlformats.org/drawingml/2006/main";
const WML = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function relationships(rels: Array<{ id: string; type: string; target: string }>): string {
  return `${XML}<Relationships xmlns="${PKG_REL}">${rels
    .map((r) => `<Relationship Id="${r.id}" Type="${REL}/${r.type}" Target="${r.target}"/>`)
    .join("")}</Relationships>`;
}

function contentTypes(overrides: Array<[string, string]>): string {
  return (
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
    `<Default Extension="xml" ContentType="application/xml"/>` +
    overrides.map(([part, type]) => `<Override PartName="/${part}" ContentType="${type}"/>`).join("") +
    `</Types>`
  );
}

/** One slide of {@link makePptx}. */
export interface SlideSpec {
  title: string;
  bullets: string[];
  notes?: string;
}

function shape(id: number, placeholder: string | undefined, paragraphs: string[], bullets: boolean): string {
  const ph = placeholder === undefined ? "" : `<p:ph type="${placeholder}"/>`;
  const paras = paragraphs
    .map((p) => `<a:p>${bullets ? '<a:pPr><a:buChar char="•"/></a:pPr>' : ""}<a:r><a:rPr lang="en-US"/><a:t>${escapeXml(p)}</a:t></a:r></a:p>`)
    .join("");
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Shape ${id}"/><p:cNvSpPr/><p:nvPr>${ph}</p:nvPr></p:nvSpPr><p:spPr/>` +
    `<p:txBody><a:bodyPr/><a:lstStyle/>${paras}</p:txBody></p:sp>`
  );
}

function spTree(shapes: string): string {
  return `<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shapes}</p:spTree></p:cSld>`;
}

/** The parts of a deck (title placeholders, bulleted bodies, speaker notes), before zipping. */
export function pptxEntries(slides: readonly SlideSpec[], options: { macroEnabled?: boolean } = {}): ZipEntry[] {
  const mainType = options.macroEnabled
    ? "application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml"
    : "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml";
  const overrides: Array<[string, string]> = [["ppt/presentation.xml", mainType]];
  const entries: ZipEntry[] = [];
  slides.forEach((slide, i) => {
    const n = i + 1;
    overrides.push([`ppt/slides/slide${n}.xml`, "application/vnd.openxmlformats-officedocument.presentationml.slide+xml"]);
    entries.push({
      name: `ppt/slides/slide${n}.xml`,
      data: `${XML}<p:sld xmlns:a="${DML}" xmlns:p="${PML}" xmlns:r="${REL}">${spTree(shape(2, "title", [slide.title], false) + shape(3, undefined, slide.bullets, true))}</p:sld>`,
    });
    if (slide.notes !== undefined) {
      overrides.push([`ppt/notesSlides/notesSlide${n}.xml`, "application/vnd.openxmlformats-officedocument.presentationml.notesSlide+xml"]);
      entries.push({
        name: `ppt/slides/_rels/slide${n}.xml.rels`,
        data: relationships([{ id: "rId1", type: "notesSlide", target: `../notesSlides/notesSlide${n}.xml` }]),
      });
      entries.push({
        name: `ppt/notesSlides/notesSlide${n}.xml`,
        data: `${XML}<p:notes xmlns:a="${DML}" xmlns:p="${PML}" xmlns:r="${REL}">${spTree(shape(2, "sldImg", [], false) + shape(3, "body", [slide.notes], false) + shape(4, "sldNum", [String(n)], false))}</p:notes>`,
      });
    }
  });
  const ids = slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join("");
  return [
    { name: "[Content_Types].xml", data: contentTypes(overrides) },
    { name: "_rels/.rels", data: relationships([{ id: "rId1", type: "officeDocument", target: "ppt/presentation.xml" }]) },
    { name: "ppt/presentation.xml", data: `${XML}<p:presentation xmlns:a="${DML}" xmlns:p="${PML}" xmlns:r="${REL}"><p:sldIdLst>${ids}</p:sldIdLst></p:presentation>` },
    {
      name: "ppt/_rels/presentation.xml.rels",
      data: relationships(slides.map((_, i) => ({ id: `rId${i + 1}`, type: "slide", target: `slides/slide${i + 1}.xml` }))),
    },
    ...entries,
  ];
}

/** A .pptx deck of `slides`. */
export function makePptx(slides: readonly SlideSpec[]): Uint8Array {
  return zipOf(pptxEntries(slides));
}

/** The parts of a minimal .docx whose body is `bodyXml` (WordprocessingML inside `<w:body>`). */
export function docxEntries(bodyXml: string, options: { macroEnabled?: boolean } = {}): ZipEntry[] {
  const mainType = options.macroEnabled
    ? "application/vnd.ms-word.document.macroEnabled.main+xml"
    : "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml";
  return [
    { name: "[Content_Types].xml", data: contentTypes([["word/document.xml", mainType]]) },
    { name: "_rels/.rels", data: relationships([{ id: "rId1", type: "officeDocument", target: "word/document.xml" }]) },
    { name: "word/document.xml", data: `${XML}<w:document xmlns:w="${WML}"><w:body>${bodyXml}</w:body></w:document>` },
  ];
}

/** A WordprocessingML paragraph of `text`. */
export function wordParagraph(text: string): string {
  return `<w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
}

/** One chapter of {@link makeEpub}: its table-of-contents title and its XHTML body. */
export interface ChapterSpec {
  title: string;
  bodyHtml: string;
}

/** An EPUB 3 book with a navigation document and one XHTML document per chapter. */
export function epubEntries(title: string, chapters: readonly ChapterSpec[]): ZipEntry[] {
  const items = chapters.map((_, i) => `<item id="c${i + 1}" href="text/ch${i + 1}.xhtml" media-type="application/xhtml+xml"/>`).join("");
  const spine = chapters.map((_, i) => `<itemref idref="c${i + 1}"/>`).join("");
  const nav = chapters.map((c, i) => `<li><a href="text/ch${i + 1}.xhtml#start">${escapeXml(c.title)}</a></li>`).join("");
  return [
    { name: "mimetype", data: "application/epub+zip", store: true },
    {
      name: "META-INF/container.xml",
      data: `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    },
    {
      name: "OEBPS/content.opf",
      data:
        `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">` +
        `<dc:identifier id="id">urn:uuid:00000000-0000-4000-8000-000000000000</dc:identifier><dc:title>${escapeXml(title)}</dc:title><dc:language>en</dc:language></metadata>` +
        `<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>${items}</manifest><spine>${spine}</spine></package>`,
    },
    {
      name: "OEBPS/nav.xhtml",
      data: `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body><nav epub:type="toc"><ol>${nav}</ol></nav></body></html>`,
    },
    ...chapters.map((c, i) => ({
      name: `OEBPS/text/ch${i + 1}.xhtml`,
      data: `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${escapeXml(c.title)}</title></head><body>${c.bodyHtml}</body></html>`,
    })),
  ];
}

/** An .epub book of `chapters`. */
export function makeEpub(title: string, chapters: readonly ChapterSpec[]): Uint8Array {
  return zipOf(epubEntries(title, chapters));
}

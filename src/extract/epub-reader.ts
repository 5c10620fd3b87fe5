/**
 * The text of an EPUB (2 or 3) e-book: its spine's XHTML documents in reading
 * order, each serialized by the HTML serializer (html-serializer.ts, so headings,
 * lists and tables read as in an HTML file) and located as chapter N (its
 * 1-based spine position) with the title the table of contents gives it (the
 * EPUB 3 navigation document, else the EPUB 2 NCX; else the document's own
 * `<title>`). Chapters are separated by a blank line. A book whose content is
 * encrypted (DRM) is `DOCUMENT_ENCRYPTED`; obfuscated fonts alone are not.
 */
import { GroundkitError } from "../core/errors.js";
import { serializeHtml } from "./html-serializer.js";
import type { OfficeTextWriter } from "./office-text-writer.js";
import { resolvePartName } from "./ooxml-parts.js";
import { readPackageTitle } from "./package-title.js";
import { attribute } from "./xml-walk.js";
import type { ZipPackage } from "./zip-package.js";

interface ManifestItem {
  href: string;
  mediaType: string;
  properties: string;
}

/** Font obfuscation (IDPF, Adobe) "encrypts" fonts only; the text stays readable. */
const FONT_OBFUSCATION = new Set(["http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"]);

const XHTML_TYPES = new Set(["application/xhtml+xml", "text/html"]);

/** Read the e-book in `pkg` into `writer`; its title from the package metadata. */
export async function readEpub(pkg: ZipPackage, writer: OfficeTextWriter, label: string | undefined, maxOutputCodePoints: number): Promise<string | undefined> {
  await refuseEncryptedContent(pkg, label);
  const opfPath = await rootfile(pkg, label);
  const manifest = new Map<string, ManifestItem>();
  const spine: string[] = [];
  let ncxId: string | undefined;
  await pkg.walkXml(opfPath, {
    open(name, attrs) {
      if (name === "item") {
        const id = attribute(attrs, "id");
        const href = attribute(attrs, "href");
        if (id !== undefined && href !== undefined && !manifest.has(id)) {
          manifest.set(id, {
            href: resolvePartName(opfPath, href),
            mediaType: attribute(attrs, "media-type") ?? "",
            properties: attribute(attrs, "properties") ?? "",
          });
        }
      } else if (name === "itemref") {
        const idref = attribute(attrs, "idref");
        if (idref !== undefined) spine.push(idref);
      } else if (name === "spine") ncxId = attribute(attrs, "toc");
    },
    close() {},
    text() {},
  });
  const toc = await tableOfContents(pkg, manifest, ncxId);
  let chapter = 0;
  for (const idref of spine) {
    const item = manifest.get(idref);
    if (!item || !XHTML_TYPES.has(item.mediaType)) continue;
    if (!pkg.has(item.href)) {
      throw new GroundkitError("EXTRACTION_FAILED", `${label ?? "The e-book"} lists ${item.href} in its spine but the package lacks it.`, { part: item.href });
    }
    const serialized = serializeHtml(withoutInternalSubset(await pkg.readText(item.href)), {
      maxOutputCodePoints,
      label,
      // The office extractor's identity is unchanged, so its chapters keep the fenced form (ADR 0029).
      fencedCode: true,
    });
    chapter++;
    const chapterTitle = toc.get(item.href) ?? serialized.title;
    writer.locate({ chapter, title: chapterTitle });
    writer.verbatim(serialized.text);
  }
  return readPackageTitle(pkg, opfPath);
}

/**
 * The document without its DOCTYPE's internal subset (`<!DOCTYPE html [ … ]>`): an
 * HTML parser would end the declaration at the first `>` inside it and read the
 * rest as text. Its entities are never expanded either way.
 */
function withoutInternalSubset(xhtml: string): string {
  return xhtml.replace(/<!DOCTYPE[^[>]*\[[^\]]*\]\s*>/i, "");
}

/** The package document's path from `META-INF/container.xml`. */
async function rootfile(pkg: ZipPackage, label: string | undefined): Promise<string> {
  let path: string | undefined;
  if (pkg.has("META-INF/container.xml")) {
    await pkg.walkXml("META-INF/container.xml", {
      open(name, attrs) {
        if (name === "rootfile" && path === undefined && (attribute(attrs, "media-type") ?? "application/oebps-package+xml") === "application/oebps-package+xml") {
          path = attribute(attrs, "full-path");
        }
      },
      close() {},
      text() {},
    });
  }
  if (path === undefined || !pkg.has(path)) {
    throw new GroundkitError("EXTRACTION_FAILED", `${label ?? "The e-book"} has no package document (META-INF/container.xml names none that exists).`);
  }
  return path;
}

/** Refuse DRM: `META-INF/rights.xml`, or content encrypted with anything but font obfuscation. */
async function refuseEncryptedContent(pkg: ZipPackage, label: string | undefined): Promise<void> {
  const refuse = (why: string): GroundkitError =>
    new GroundkitError("DOCUMENT_ENCRYPTED", `${label ?? "The e-book"} is encrypted (${why}); its text cannot be read.`);
  if (pkg.has("META-INF/rights.xml")) throw refuse("it carries DRM rights, META-INF/rights.xml");
  if (!pkg.has("META-INF/encryption.xml")) return;
  const algorithms: string[] = [];
  await pkg.walkXml("META-INF/encryption.xml", {
    open(name, attrs) {
      if (name === "EncryptionMethod") algorithms.push(attribute(attrs, "Algorithm") ?? "");
    },
    close() {},
    text() {},
  });
  const other = algorithms.find((a) => !FONT_OBFUSCATION.has(a));
  if (other !== undefined) throw refuse(`META-INF/encryption.xml uses ${other || "an unnamed algorithm"}`);
}

/** Chapter titles by document path: the first table-of-contents entry pointing into each document. */
async function tableOfContents(pkg: ZipPackage, manifest: ReadonlyMap<string, ManifestItem>, ncxId: string | undefined): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  const add = (from: string, href: string | undefined, text: string): void => {
    const clean = text.replace(/\s+/g, " ").trim();
    if (href === undefined || !clean) return;
    const target = resolvePartName(from, href);
    if (!titles.has(target)) titles.set(target, clean);
  };
  const nav = [...manifest.values()].find((m) => m.properties.split(/\s+/).includes("nav") && pkg.has(m.href));
  if (nav) {
    let link: { href: string | undefined; text: string } | undefined;
    await pkg.walkXml(nav.href, {
      open(name, attrs) {
        if (name === "a") link = { href: attribute(attrs, "href"), text: "" };
      },
      close(name) {
        if (name === "a" && link) add(nav.href, link.href, link.text);
        if (name === "a") link = undefined;
      },
      text(text) {
        if (link) link.text += text;
      },
    });
    return titles;
  }
  const ncx = ncxId === undefined ? undefined : manifest.get(ncxId);
  if (!ncx || !pkg.has(ncx.href)) return titles;
  // navPoint > navLabel > text, then content@src; nested navPoints come after their parent's.
  const points: Array<{ label: string; inLabel: boolean; src?: string | undefined }> = [];
  await pkg.walkXml(ncx.href, {
    open(name, attrs) {
      if (name === "navPoint") points.push({ label: "", inLabel: false });
      else if (name === "navLabel" && points.length) points.at(-1)!.inLabel = true;
      else if (name === "content" && points.length) {
        const point = points.at(-1)!;
        point.src ??= attribute(attrs, "src");
        add(ncx.href, point.src, point.label);
      }
    },
    close(name) {
      if (name === "navLabel" && points.length) points.at(-1)!.inLabel = false;
      else if (name === "navPoint") points.pop();
    },
    text(text) {
      const point = points.at(-1);
      if (point?.inLabel) point.label += text;
    },
  });
  return titles;
}

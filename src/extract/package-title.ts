/**
 * A package's document title: the first `title` element (Dublin Core `dc:title`)
 * of its metadata part (OOXML `docProps/core.xml`, ODF `meta.xml`, the EPUB
 * package document), whitespace-collapsed.
 */
import type { ZipPackage } from "./zip-package.js";

/** The title in `part` of `pkg`; undefined when the part or its title is absent or empty. */
export async function readPackageTitle(pkg: ZipPackage, part: string): Promise<string | undefined> {
  if (!pkg.has(part)) return undefined;
  let title: string | undefined;
  let depth = 0;
  await pkg.walkXml(part, {
    open(name) {
      if (name === "title" && title === undefined) depth++;
    },
    close(name) {
      if (name === "title" && depth > 0) {
        depth--;
        title ??= "";
      }
    },
    text(text) {
      if (depth > 0) title = (title ?? "") + text;
    },
  });
  const clean = title?.replace(/\s+/g, " ").trim();
  return clean ? clean : undefined;
}

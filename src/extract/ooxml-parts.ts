/**
 * The Open Packaging Conventions parts every OOXML reader needs: the content
 * types (which part is the main document, and of what kind) and a part's
 * relationships (ECMA-376 Part 2). Also resolving a relative target within the
 * package, which EPUB uses as well.
 */
import { GroundkitError } from "../core/errors.js";
import { attribute, type XmlAttributes } from "./xml-walk.js";
import type { ZipPackage } from "./zip-package.js";

/** `[Content_Types].xml`: part name (no leading slash) → content type, overrides only. */
export async function readContentTypes(pkg: ZipPackage): Promise<Map<string, string>> {
  const types = new Map<string, string>();
  await pkg.walkXml("[Content_Types].xml", {
    open(name, attrs) {
      if (name !== "Override") return;
      const part = attribute(attrs, "PartName");
      const type = attribute(attrs, "ContentType");
      if (part !== undefined && type !== undefined) types.set(decodePartName(part.replace(/^\//, "")), type);
    },
    close() {},
    text() {},
  });
  return types;
}

/** One relationship of a part. */
export interface Relationship {
  type: string;
  /** The target part's name within the package (resolved), or the raw target when external. */
  target: string;
  external: boolean;
}

/** The relationships of `part` (`word/document.xml` → `word/_rels/document.xml.rels`) by id; empty when it has none. */
export async function readRelationships(pkg: ZipPackage, part: string): Promise<Map<string, Relationship>> {
  const slash = part.lastIndexOf("/");
  const relsName = `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
  const rels = new Map<string, Relationship>();
  if (!pkg.has(relsName)) return rels;
  await pkg.walkXml(relsName, {
    open(name, attrs: XmlAttributes) {
      if (name !== "Relationship") return;
      const id = attribute(attrs, "Id");
      const target = attribute(attrs, "Target");
      if (id === undefined || target === undefined || rels.has(id)) return;
      const external = attribute(attrs, "TargetMode") === "External";
      rels.set(id, { type: attribute(attrs, "Type") ?? "", target: external ? target : resolvePartName(part, target), external });
    },
    close() {},
    text() {},
  });
  return rels;
}

/** The last path segment of a relationship type URI: `.../relationships/slide` → `slide`. */
export function relationshipKind(type: string): string {
  return type.slice(type.lastIndexOf("/") + 1);
}

/**
 * Resolve `target` (relative to the part `from`, or absolute from the package root
 * when it starts with "/") to a part name: percent-decoded, fragment dropped, dot
 * segments applied. A target that climbs above the root is refused.
 *
 * @example
 *   resolvePartName("ppt/presentation.xml", "slides/slide1.xml") // "ppt/slides/slide1.xml"
 *   resolvePartName("ppt/slides/slide1.xml", "../notesSlides/notesSlide1.xml") // "ppt/notesSlides/notesSlide1.xml"
 */
export function resolvePartName(from: string, target: string): string {
  const path = decodePartName(target.replace(/#.*$/, ""));
  const base = path.startsWith("/") ? [] : from.split("/").slice(0, -1);
  const segments = [...base];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) throw new GroundkitError("EXTRACTION_FAILED", `A reference in the package climbs above its root: ${target}.`);
      segments.pop();
    } else segments.push(segment);
  }
  return segments.join("/");
}

function decodePartName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

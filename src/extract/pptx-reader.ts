/**
 * The text of a PresentationML deck (.pptx): its slides in presentation order
 * (hidden slides included), each one located at its 1-based slide number. A
 * slide starts with the heading `# <title>` (the title placeholder's text;
 * `# Untitled slide` without one: the number is the location's, never the
 * text's, so inserting a slide leaves the text of the others unchanged and a
 * moved passage can be found again), then its other shapes' paragraphs in shape
 * order (bulleted paragraphs as list items, tables as rows; slide number,
 * header, footer and date fields left out), then its speaker notes under `## Notes`. Layouts and masters (placeholder prompts) are not read.
 */
import { GroundkitError } from "../core/errors.js";
import { OOXML_TABLES, ParagraphStack, SkippedSubtrees, TableRows, type WriteOp } from "./office-blocks.js";
import { UNTITLED_SLIDE, type OfficeTextWriter } from "./office-text-writer.js";
import { readRelationships, relationshipKind } from "./ooxml-parts.js";
import { attribute, prefixedAttribute } from "./xml-walk.js";
import type { ZipPackage } from "./zip-package.js";

interface SlideParagraph {
  text: string;
  bullet: boolean;
  level: number;
}

/** What one slide (or notes page) part holds. */
interface SlideText {
  title: string[];
  body: WriteOp[];
}

const SKIPPED = new Set(["Fallback", "rPr", "endParaRPr"]);

/** Placeholders that are page furniture, not content: the slide image (of a notes page), number, header, footer and date. */
const PAGE_FIELDS = new Set(["sldImg", "sldNum", "hdr", "ftr", "dt"]);

/** Read the presentation `part` of `pkg` into `writer`. */
export async function readPptx(pkg: ZipPackage, part: string, writer: OfficeTextWriter, label: string | undefined): Promise<void> {
  const rels = await readRelationships(pkg, part);
  const slideIds: string[] = [];
  await pkg.walkXml(part, {
    open(name, attrs) {
      if (name !== "sldId") return;
      const id = prefixedAttribute(attrs, "id");
      if (id !== undefined) slideIds.push(id);
    },
    close() {},
    text() {},
  });
  for (const [index, id] of slideIds.entries()) {
    const rel = rels.get(id);
    if (!rel || rel.external || !pkg.has(rel.target)) {
      throw new GroundkitError("EXTRACTION_FAILED", `${label ?? "The deck"} lists slide ${index + 1} but its part is missing.`, { slide: index + 1 });
    }
    const number = index + 1;
    const slide = await readSlidePart(pkg, rel.target, "slide");
    writer.locate({ slide: number });
    const title = slide.title.join(" ").replace(/\s+/g, " ").trim();
    writer.heading(1, title || UNTITLED_SLIDE);
    for (const op of slide.body) op(writer);
    const notesPart = [...(await readRelationships(pkg, rel.target)).values()].find(
      (r) => !r.external && relationshipKind(r.type) === "notesSlide" && pkg.has(r.target),
    );
    if (notesPart) {
      const notes = await readSlidePart(pkg, notesPart.target, "notes");
      if (notes.body.length) {
        writer.heading(2, "Notes");
        for (const op of notes.body) op(writer);
      }
    }
  }
}

/**
 * The title and body of a slide, or the body of a notes page: its shapes but
 * the page furniture (slide image, number, header, footer and date fields).
 */
async function readSlidePart(pkg: ZipPackage, part: string, kind: "slide" | "notes"): Promise<SlideText> {
  const out: SlideText = { title: [], body: [] };
  const paragraphs = new ParagraphStack<SlideParagraph>();
  const tables = new TableRows(OOXML_TABLES);
  const skipped = new SkippedSubtrees(SKIPPED);
  // The placeholder type of each open shape ("" for a shape that is no placeholder).
  const shapes: string[] = [];
  let textDepth = 0;
  const placeholder = (): string => shapes.at(-1) ?? "";
  const wanted = (): boolean => !PAGE_FIELDS.has(placeholder());

  await pkg.walkXml(part, {
    open(name, attrs) {
      if (skipped.open(name)) return;
      switch (name) {
        case "sp":
        case "graphicFrame":
          shapes.push("");
          break;
        case "ph":
          // A placeholder without a type is a body placeholder (ECMA-376 19.3.1.36).
          if (shapes.length) shapes[shapes.length - 1] = attribute(attrs, "type") ?? "body";
          break;
        case "p":
          paragraphs.push({ text: "", bullet: false, level: 0 });
          break;
        case "pPr": {
          const p = paragraphs.top();
          if (p) p.level = Math.min(8, Math.max(0, Number(attribute(attrs, "lvl")) || 0));
          break;
        }
        case "buChar":
        case "buAutoNum": {
          const p = paragraphs.top();
          if (p) p.bullet = true;
          break;
        }
        case "t":
          textDepth++;
          break;
        case "br":
          paragraphs.append("\n");
          break;
      }
      tables.open(name);
    },
    close(name) {
      if (skipped.close()) return;
      tables.close(name, (cells) => out.body.push((w) => w.row(cells)));
      switch (name) {
        case "sp":
        case "graphicFrame":
          shapes.pop();
          break;
        case "t":
          textDepth--;
          break;
        case "p": {
          const p = paragraphs.pop();
          if (!p || !wanted()) break;
          const type = placeholder();
          if (kind === "slide" && (type === "title" || type === "ctrTitle")) out.title.push(p.text);
          else if (tables.inTable) tables.addParagraph(p.text);
          else out.body.push((w) => w.block(p.text, p.bullet ? "item" : "paragraph", p.level));
          break;
        }
      }
    },
    text(text) {
      if (!skipped.active && textDepth > 0) paragraphs.append(text);
    },
  });
  return out;
}

/**
 * The text of a WordprocessingML document (.docx): the main document part's
 * body, in document order. Headings (a paragraph whose style is "heading N" or
 * "Title", or has an outline level, directly or through its style) become
 * ATX headings and set the location's heading path; numbered and bulleted
 * paragraphs become list items; tables become rows. Deleted text of tracked
 * changes, field codes and the fallback copy of alternate content are skipped;
 * headers, footers, footnotes and comments are not read.
 */
import { OOXML_TABLES, ParagraphStack, SkippedSubtrees, TableRows } from "./office-blocks.js";
import type { OfficeTextWriter } from "./office-text-writer.js";
import { attribute } from "./xml-walk.js";
import type { ZipPackage } from "./zip-package.js";
import { readRelationships, relationshipKind } from "./ooxml-parts.js";

interface WordParagraph {
  text: string;
  style?: string | undefined;
  outline?: number | undefined;
  list: boolean;
  level: number;
}

interface WordStyle {
  name: string;
  outline?: number | undefined;
  basedOn?: string | undefined;
}

const SKIPPED = new Set(["instrText", "delText", "delInstrText", "Fallback", "moveFrom", "rPr"]);

/** Read `part` (the main document) of `pkg` into `writer`. */
export async function readDocx(pkg: ZipPackage, part: string, writer: OfficeTextWriter): Promise<void> {
  const styles = await readStyles(pkg, part);
  const headings: Array<{ level: number; text: string }> = [];
  const paragraphs = new ParagraphStack<WordParagraph>();
  const tables = new TableRows(OOXML_TABLES);
  const skipped = new SkippedSubtrees(SKIPPED);
  let runDepth = 0;
  let textDepth = 0;
  writer.locate({ headings: [] });

  const finishParagraph = (p: WordParagraph): void => {
    if (tables.inTable) return tables.addParagraph(p.text);
    const level = headingLevel(p, styles);
    if (level !== undefined && p.text.trim()) {
      while (headings.length && headings.at(-1)!.level >= level) headings.pop();
      headings.push({ level, text: p.text.replace(/\s+/g, " ").trim() });
      writer.locate({ headings: headings.map((h) => h.text) });
      writer.heading(level, p.text);
    } else writer.block(p.text, p.list ? "item" : "paragraph", p.level);
  };

  await pkg.walkXml(part, {
    open(name, attrs) {
      if (skipped.open(name)) return;
      const p = paragraphs.top();
      switch (name) {
        case "p":
          paragraphs.push({ text: "", list: false, level: 0 });
          break;
        case "pStyle":
          if (p) p.style = attribute(attrs, "val");
          break;
        case "outlineLvl":
          if (p) p.outline = Number(attribute(attrs, "val"));
          break;
        case "numPr":
          if (p) p.list = true;
          break;
        case "ilvl":
          if (p) p.level = Math.min(8, Math.max(0, Number(attribute(attrs, "val")) || 0));
          break;
        case "r":
          runDepth++;
          break;
        case "t":
          textDepth++;
          break;
        case "tab":
          if (runDepth > 0) paragraphs.append("\t");
          break;
        case "br":
        case "cr":
          if (runDepth > 0) paragraphs.append("\n");
          break;
        case "noBreakHyphen":
          if (runDepth > 0) paragraphs.append("-");
          break;
      }
      tables.open(name);
    },
    close(name) {
      if (skipped.close()) return;
      tables.close(name, (cells) => writer.row(cells));
      switch (name) {
        case "p": {
          const p = paragraphs.pop();
          if (p) finishParagraph(p);
          break;
        }
        case "r":
          runDepth--;
          break;
        case "t":
          textDepth--;
          break;
      }
    },
    text(text) {
      if (!skipped.active && textDepth > 0) paragraphs.append(text);
    },
  });
}

/** The heading level (1-9) of a paragraph, or undefined for body text. */
function headingLevel(p: WordParagraph, styles: ReadonlyMap<string, WordStyle>): number | undefined {
  if (p.outline !== undefined && p.outline >= 0 && p.outline <= 8) return p.outline + 1;
  // Follow basedOn a bounded number of steps: a style cycle must not hang.
  let id = p.style;
  for (let step = 0; id !== undefined && step < 16; step++) {
    const style = styles.get(id);
    if (!style) return undefined;
    const named = /^heading\s*([1-9])$/i.exec(style.name);
    if (named) return Number(named[1]);
    if (/^title$/i.test(style.name)) return 1;
    if (style.outline !== undefined && style.outline >= 0 && style.outline <= 8) return style.outline + 1;
    id = style.basedOn;
  }
  return undefined;
}

/** Paragraph styles by id, from the styles part the main document relates to. */
async function readStyles(pkg: ZipPackage, part: string): Promise<Map<string, WordStyle>> {
  const rels = await readRelationships(pkg, part);
  const stylesPart = [...rels.values()].find((r) => !r.external && relationshipKind(r.type) === "styles")?.target;
  const styles = new Map<string, WordStyle>();
  if (stylesPart === undefined || !pkg.has(stylesPart)) return styles;
  let current: WordStyle | undefined;
  await pkg.walkXml(stylesPart, {
    open(name, attrs) {
      if (name === "style") {
        const id = attribute(attrs, "styleId");
        current = { name: id ?? "" };
        if (id !== undefined && attribute(attrs, "type") !== "character" && !styles.has(id)) styles.set(id, current);
      } else if (current && name === "name") current.name = attribute(attrs, "val") ?? current.name;
      else if (current && name === "basedOn") current.basedOn = attribute(attrs, "val");
      else if (current && name === "outlineLvl") current.outline = Number(attribute(attrs, "val"));
    },
    close(name) {
      if (name === "style") current = undefined;
    },
    text() {},
  });
  return styles;
}

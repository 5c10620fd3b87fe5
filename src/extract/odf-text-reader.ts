/**
 * The text of an OpenDocument text (.odt) or presentation (.odp) from its
 * `content.xml`, in document order.
 * - Text: headings (`text:h`, at their outline level) become ATX headings and set
 *   the location's heading path; paragraphs in lists become list items; tables rows.
 * - Presentation: each `draw:page` is a slide located at its 1-based number, written
 *   like a .pptx slide: `# <title>` (its title frame's text), the other
 *   frames' paragraphs (number, header, footer and date fields left out), then its
 *   speaker notes under `## Notes`.
 * - A paragraph whose style has an outline level (declared, or a built-in "Heading N")
 *   is a heading like `text:h`.
 * Comments, footnotes, tracked deletions, alternative text of drawings and
 * declarations are skipped.
 */
import { ParagraphStack, SkippedSubtrees, TableRows, type WriteOp } from "./office-blocks.js";
import { UNTITLED_SLIDE, type OfficeTextWriter, type RowCell } from "./office-text-writer.js";
import { attribute, type XmlVisitor } from "./xml-walk.js";
import type { ZipPackage } from "./zip-package.js";

interface OdfParagraph {
  text: string;
  heading?: number | undefined;
  /** List nesting level (0 = outermost) when inside a list. */
  item?: number | undefined;
}

interface Slide {
  number: number;
  title: string[];
  body: WriteOp[];
  notes: WriteOp[];
}

const SKIPPED = new Set([
  "annotation",
  "note",
  "tracked-changes",
  "sequence-decls",
  "variable-decls",
  "user-field-decls",
  "forms",
  "desc",
  "title",
  "font-face-decls",
  "scripts",
]);

/** Read `content.xml` of an ODF text document or presentation into `writer`. */
export async function readOdfText(pkg: ZipPackage, mode: "text" | "presentation", writer: OfficeTextWriter): Promise<void> {
  const styles = new Map<string, ParagraphStyle>();
  if (pkg.has("styles.xml")) await pkg.walkXml("styles.xml", styleCollector(styles));
  const collectStyle = styleCollector(styles);
  const paragraphs = new ParagraphStack<OdfParagraph>();
  const tables = new TableRows({ table: "table", row: "table-row", cells: ["table-cell", "covered-table-cell"] });
  const skipped = new SkippedSubtrees(SKIPPED);
  const headings: Array<{ level: number; text: string }> = [];
  // The presentation class of each open frame ("" when it has none).
  const frames: string[] = [];
  let listDepth = 0;
  let notesDepth = 0;
  let slides = 0;
  let slide: Slide | undefined;
  if (mode === "text") writer.locate({ headings: [] });

  const finishParagraph = (p: OdfParagraph): void => {
    if (PAGE_FIELDS.has(frames.at(-1) ?? "")) return;
    if (tables.inTable) return tables.addParagraph(p.text);
    const op: WriteOp = (w) => w.block(p.text, p.item === undefined ? "paragraph" : "item", p.item ?? 0);
    if (slide) {
      if (notesDepth > 0) slide.notes.push(op);
      else if (frames.at(-1) === "title") slide.title.push(p.text);
      else slide.body.push(op);
      return;
    }
    if (p.heading !== undefined && p.text.trim()) {
      while (headings.length && headings.at(-1)!.level >= p.heading) headings.pop();
      headings.push({ level: p.heading, text: p.text.replace(/\s+/g, " ").trim() });
      writer.locate({ headings: headings.map((h) => h.text) });
      writer.heading(p.heading, p.text);
    } else op(writer);
  };
  const writeRow = (cells: RowCell[]): void => {
    if (!slide) return writer.row(cells);
    (notesDepth > 0 ? slide.notes : slide.body).push((w) => w.row(cells));
  };

  await pkg.walkXml("content.xml", {
    open(name, attrs) {
      if (skipped.open(name)) return;
      switch (name) {
        case "style":
          collectStyle.open(name, attrs);
          break;
        case "page":
          if (mode === "presentation") slide = { number: ++slides, title: [], body: [], notes: [] };
          break;
        case "frame":
          frames.push(attribute(attrs, "class") ?? "");
          break;
        case "notes":
          notesDepth++;
          break;
        case "list":
          listDepth++;
          break;
        case "h": {
          const level = Number(attribute(attrs, "outline-level"));
          paragraphs.push({ text: "", heading: Number.isInteger(level) && level >= 1 ? Math.min(level, 10) : 1 });
          break;
        }
        case "p": {
          // A paragraph whose style (or a parent style) has an outline level is a heading, as text:h is.
          const heading = listDepth > 0 ? undefined : styleOutline(styles, attribute(attrs, "style-name"));
          paragraphs.push({ text: "", heading, item: listDepth > 0 ? Math.min(listDepth - 1, 8) : undefined });
          break;
        }
        case "s":
        case "tab":
          paragraphs.append(" ");
          break;
        case "line-break":
          paragraphs.append("\n");
          break;
      }
      tables.open(name);
    },
    close(name) {
      if (skipped.close()) return;
      tables.close(name, writeRow);
      switch (name) {
        case "page":
          if (slide) writeSlide(slide, writer);
          slide = undefined;
          break;
        case "frame":
          frames.pop();
          break;
        case "notes":
          notesDepth--;
          break;
        case "list":
          listDepth--;
          break;
        case "h":
        case "p": {
          const p = paragraphs.pop();
          if (p) finishParagraph(p);
          break;
        }
      }
    },
    text(text) {
      if (!skipped.active) paragraphs.append(text);
    },
  });
}

/** Presentation frames that are page furniture, not content. */
const PAGE_FIELDS = new Set(["page-number", "header", "footer", "date-time", "page"]);

interface ParagraphStyle {
  parent?: string | undefined;
  outline?: number | undefined;
}

/** Collects paragraph styles (`style:style`): their parent and default outline level. */
function styleCollector(styles: Map<string, ParagraphStyle>): XmlVisitor {
  return {
    open(name, attrs) {
      if (name !== "style") return;
      const styleName = attribute(attrs, "name");
      if (styleName === undefined || attribute(attrs, "family") !== "paragraph" || styles.has(styleName)) return;
      const declared = Number(attribute(attrs, "default-outline-level"));
      // Without a declared level, the built-in heading styles still say theirs by name ("Heading 2", "Title").
      const shown = (attribute(attrs, "display-name") ?? styleName).replaceAll("_20_", " ");
      const named = /^heading\s*([1-9]|10)$/i.exec(shown)?.[1] ?? (/^title$/i.test(shown) ? "1" : undefined);
      const outline = Number.isInteger(declared) && declared >= 1 ? declared : named === undefined ? undefined : Number(named);
      styles.set(styleName, { parent: attribute(attrs, "parent-style-name"), outline });
    },
    close() {},
    text() {},
  };
}

/** The outline level a paragraph style gives, following parents a bounded number of steps. */
function styleOutline(styles: ReadonlyMap<string, ParagraphStyle>, name: string | undefined): number | undefined {
  for (let step = 0; name !== undefined && step < 16; step++) {
    const style = styles.get(name);
    if (!style) return undefined;
    if (style.outline !== undefined) return Math.min(style.outline, 10);
    name = style.parent;
  }
  return undefined;
}

function writeSlide(slide: Slide, writer: OfficeTextWriter): void {
  writer.locate({ slide: slide.number });
  const title = slide.title.join(" ").replace(/\s+/g, " ").trim();
  writer.heading(1, title || UNTITLED_SLIDE);
  for (const op of slide.body) op(writer);
  if (slide.notes.length) {
    writer.heading(2, "Notes");
    for (const op of slide.notes) op(writer);
  }
}

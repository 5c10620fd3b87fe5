/**
 * Real PDFs for tests, generated with pdf-lib: text drawn with the standard
 * Helvetica font (WinAnsi encoding, so Latin-1 text like "café déjà" works), one
 * line per entry, top to bottom.
 *
 * Astral characters cannot be encoded by a standard font, so lines made only of
 * the characters in {@link ASTRAL_GLYPHS} are drawn with a second standard font
 * whose /ToUnicode CMap maps the codes "A", "B" to U+1F600 and U+20000: a PDF
 * reader then extracts real astral text, which pins code-point offsets.
 */
import { PDFDict, PDFDocument, PDFName, StandardFonts } from "pdf-lib";

/** Astral characters a fixture line may consist of, and the byte code each is drawn with. */
export const ASTRAL_GLYPHS: Readonly<Record<string, string>> = { "\u{1F600}": "A", "\u{20000}": "B" };

const ASTRAL_TO_UNICODE = `/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<00> <FF>
endcodespacerange
2 beginbfchar
<41> <D83DDE00>
<42> <D840DC00>
endbfchar
endcmap
CMapName currentdict /CMap defineresource pop
end
end`;

const FIXED_DATE = new Date(Date.UTC(2020, 0, 1));

/** Options for {@link makePdf}. */
export interface PdfFixtureOptions {
  /** Stored as the document-info /Title. */
  title?: string;
}

/**
 * A PDF with one page per entry of `pages`, each page drawing its lines top-down.
 *
 * @example
 *   const bytes = await makePdf([["Page one"], ["café déjà", "second line"]]);
 */
export async function makePdf(pages: readonly (readonly string[])[], options: PdfFixtureOptions = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  // Fixed dates keep the fixture's bytes identical from run to run.
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);
  if (options.title !== undefined) doc.setTitle(options.title);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const astralFont = await doc.embedFont(StandardFonts.Courier);
  let usesAstral = false;
  for (const lines of pages) {
    const page = doc.addPage([420, Math.max(200, 60 + lines.length * 20)]);
    let y = page.getHeight() - 40;
    for (const line of lines) {
      const chars = [...line];
      if (chars.length > 0 && chars.every((c) => c in ASTRAL_GLYPHS)) {
        page.drawText(chars.map((c) => ASTRAL_GLYPHS[c]).join(""), { x: 40, y, size: 12, font: astralFont });
        usesAstral = true;
      } else {
        page.drawText(line, { x: 40, y, size: 12, font });
      }
      y -= 20;
    }
  }
  if (usesAstral) {
    await doc.flush(); // materializes the font dictionaries so the CMap can be attached
    const dict = doc.context.lookup(astralFont.ref, PDFDict);
    dict.set(PDFName.of("ToUnicode"), doc.context.register(doc.context.stream(ASTRAL_TO_UNICODE)));
  }
  return doc.save();
}

/** `length` deterministic pseudo-random bytes (a 32-bit LCG seeded with `seed`). */
export function pseudoRandomBytes(length: number, seed = 1): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

/**
 * ADR 0037: which place a repeated cited text went to is told by its
 * surroundings, never by nearness; a place that may be another copy is never
 * chosen.
 */
import { describe, expect, it } from "vitest";
import { choosePlace, type Place } from "../src/cite/choose-place.js";
import { CodePointText } from "../src/core/text.js";

const A = "The first paragraph of the guide opens with these words: ";
const B = " and then it ends, as first paragraphs do.\n\n";
const C = "Much later a second paragraph, about something else: ";
const D = " which closes the whole guide for good.\n";
const TEXT = "close the client 😀";
const THEN = `${A}${TEXT}${B}${C}${TEXT}${D}`;
/** The second copy is the cited one (code points: the emoji counts once). */
const START = [...`${A}${TEXT}${B}${C}`].length;
const then = { content: new CodePointText(THEN), start: START, end: START + [...TEXT].length };

/** Every occurrence of TEXT in each of `contents`, as places. */
function placesIn(...contents: string[]): Array<Place & { doc: number }> {
  const out: Array<Place & { doc: number }> = [];
  contents.forEach((text, doc) => {
    const content = new CodePointText(text);
    for (let at = content.indexOf(TEXT); at >= 0; at = content.indexOf(TEXT, at + 1)) out.push({ content, at, doc });
  });
  return out;
}

function chosen(places: Array<Place & { doc: number }>): { doc: number; at: number } | string {
  const c = choosePlace(places, TEXT, then);
  return c.kind === "chosen" ? { doc: c.place.doc, at: c.place.at } : c.kind;
}

describe("choosing where a cited text went (ADR 0037)", () => {
  it("follows the copy whose surroundings are the cited copy's, in the same file or another", () => {
    // Both copies still in the file, shifted: the second.
    expect(chosen(placesIn(`X${THEN}`))).toEqual({ doc: 0, at: START + 1 });
    // The cited copy's section moved to another file, the other copy stayed: the other file.
    expect(chosen(placesIn(`${A}${TEXT}${B}`, `# Other\n\n${C}${TEXT}${D}`))).toEqual({ doc: 1, at: [...`# Other\n\n${C}`].length });
  });

  it("never chooses a place that may be another copy, nor one of two places alike", () => {
    // The cited copy deleted, the other kept: the one place left is the other copy.
    expect(chosen(placesIn(`${A}${TEXT}${B}`))).toBe("ambiguous");
    // Two copies in the cited copy's surroundings: nothing tells them apart.
    expect(chosen(placesIn(`${B}${C}${TEXT}${D}${B}${C}${TEXT}${D}`))).toBe("ambiguous");
    // Nothing around it any more: no evidence, no choice.
    expect(chosen(placesIn(TEXT))).toBe("ambiguous");
  });

  it("takes the single place of a text that was not repeated, and names none when the past is unknown and it is repeated now", () => {
    const once = { content: new CodePointText(`${C}${TEXT}${D}`), start: [...C].length, end: [...C].length + [...TEXT].length };
    const one = placesIn(`elsewhere ${TEXT} entirely`);
    expect(choosePlace(one, TEXT, once)).toMatchObject({ kind: "chosen", place: { at: 10 } });
    expect(choosePlace(one, TEXT, undefined)).toMatchObject({ kind: "chosen" });
    expect(choosePlace(placesIn(`${TEXT} and ${TEXT}`), TEXT, undefined).kind).toBe("ambiguous");
    expect(choosePlace([], TEXT, once).kind).toBe("none");
  });
});

describe("a place that is another copy, near the cited one (ADR 0037)", () => {
  // Two copies of a line in two code blocks that differ only in their first words: the text
  // around the other copy shares much of the cited copy's surroundings, but all of its own.
  const block = (intro: string, end: string) => `${intro}\n\n\`\`\`js\nconst client = new Client(origin)\n// ${TEXT}\nawait client.request(options)\n\`\`\`\n\n${end}`;
  const first = block("Intro one: the pool.", "That is all for the pool.\n\n");
  const second = block("Intro two: the agent.", "That is all for the agent.\n");
  const asCited = `${first}${second}`;
  const at = [...`${first}${block("Intro two: the agent.", "").split(TEXT)[0]}`].length;
  const span = { content: new CodePointText(asCited), start: at, end: at + [...TEXT].length };

  it("is never chosen when the cited copy was deleted, however much its surroundings share", () => {
    const left = placesIn(first);
    expect(left).toHaveLength(1);
    expect(choosePlace(left, TEXT, span).kind).toBe("ambiguous");
    // The cited copy's block moved to another file: that one, not the copy that stayed.
    expect(choosePlace(placesIn(first, `# Agent\n\n${second}`), TEXT, span)).toMatchObject({ kind: "chosen", place: { doc: 1 } });
  });
});

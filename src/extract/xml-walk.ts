/**
 * A streaming walk over one XML part of an office package, on htmlparser2's
 * SAX parser in XML mode (no DOM is built, so a part costs memory in proportion
 * to what the visitor keeps, not to its size).
 *
 * - Element and attribute names are reported by local name (the prefix cut):
 *   producers spell prefixes differently, and the formats' element names do not
 *   collide in the parts we read (docs/decisions/0022-office-documents.md).
 * - Only the five XML entities and character references are decoded; entities a
 *   DOCTYPE declares are never expanded (the "billion laughs" cannot happen).
 * - At most {@link XML_MAX_NESTING_DEPTH} elements open at once, like HTML
 *   (docs/decisions/0007-extraction-limits.md): deeper is `EXTRACTION_LIMIT`.
 */
import { Parser } from "htmlparser2";
import { extractionLimit } from "./limits.js";

/** The most elements open at once in one part; real documents stay below 100. */
export const XML_MAX_NESTING_DEPTH = 1024;

/** Attributes by qualified name (`w:val`) as written. */
export type XmlAttributes = Readonly<Record<string, string>>;

/** What a walk reports; names are local names. */
export interface XmlVisitor {
  open(name: string, attrs: XmlAttributes): void;
  close(name: string): void;
  text(text: string): void;
}

/** A push parser for one part: feed it decoded text, then end it. */
export interface XmlWalk {
  write(chunk: string): void;
  end(): void;
}

/** The local part of a qualified name: `w:p` → `p`. */
export function localName(name: string): string {
  const colon = name.indexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
}

/**
 * The value of the attribute with local name `local`, prefixed or not (the first
 * in document order when several match); undefined when absent.
 *
 * @example
 *   attribute({ "w:val": "Heading1" }, "val") // "Heading1"
 */
export function attribute(attrs: XmlAttributes, local: string): string | undefined {
  for (const name in attrs) if (localName(name) === local) return attrs[name];
  return undefined;
}

/**
 * The value of a prefixed attribute with local name `local` (`r:id`, never a plain
 * `id`): relationship ids sit beside unrelated plain ids on the same element.
 */
export function prefixedAttribute(attrs: XmlAttributes, local: string): string | undefined {
  for (const name in attrs) if (name.includes(":") && localName(name) === local) return attrs[name];
  return undefined;
}

/**
 * Start a walk of part `part` of the document `label`, reporting to `visitor`.
 *
 * @throws GroundkitError `EXTRACTION_LIMIT` (limit "nesting") past {@link XML_MAX_NESTING_DEPTH} open elements.
 */
export function startXmlWalk(visitor: XmlVisitor, part: string, label: string | undefined): XmlWalk {
  let depth = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (++depth > XML_MAX_NESTING_DEPTH) {
          throw extractionLimit("nesting", `stopped: part ${part} nests more than ${XML_MAX_NESTING_DEPTH} elements`, label, {
            maxNestingDepth: XML_MAX_NESTING_DEPTH,
            part,
          });
        }
        visitor.open(localName(name), attrs);
      },
      onclosetag(name) {
        depth--;
        visitor.close(localName(name));
      },
      ontext(text) {
        visitor.text(text);
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeCDATA: true },
  );
  return {
    write: (chunk) => parser.write(chunk),
    // A truncated part is closed implicitly, as the parser does for HTML: the text read so far stands.
    end: () => parser.end(),
  };
}

/**
 * Chunking source code along its syntax tree.
 *
 * The file is cut into segments that tile it: a node that fits the chunk size
 * is one segment; a larger one is cut before each of its named children (its
 * header, then one segment per child, the last one running to the node's end),
 * recursively, so a large class splits at its members and a large function at
 * its statements; a node too large with no children (a long string) is cut by
 * lines. A comment or decorator directly above a node (no blank line between)
 * starts that node's segment, so it stays with what it describes; a comment
 * on the same line as the code before it stays with that code.
 *
 * Segments are then packed: neighbours merge while the merged span fits and
 * one of them is small (under half a chunk), or neither holds a whole
 * definition, so a function or class of half a chunk or more is a chunk of its
 * own and smaller neighbours (imports, constants, short functions) share one.
 * Every chunk is a contiguous, trimmed span of the content, as for prose.
 *
 * Each chunk records the definitions it holds whole (kind and qualified name,
 * `method Collection.search`) and those it holds parts of; its heading path is
 * the path to the definition that labels it (`class Collection > method
 * search`), indexed with its text as a Markdown heading path is. Positions are UTF-16 indexes (what web-tree-sitter reports);
 * sizes are measured in code points.
 */
import type { CodeSymbol } from "../../core/code-languages.js";
import type { ChunkSpan } from "../../core/contracts.js";
import { CodePointText } from "../../core/text.js";
import { chunkText } from "../chunker.js";
import type { SyntaxNode } from "./grammars.js";

/** A chunk of a code file: a span plus what it holds. */
export interface CodeChunkSpan extends ChunkSpan {
  /** Definitions held whole, outermost first (nested ones included). */
  symbols: CodeSymbol[];
  /** Definitions this chunk holds parts of (ones too large for a chunk), the largest share first. */
  within: CodeSymbol[];
}

/** Kind of definition per node type, across the supported grammars. */
const DEFINITION_KINDS: Readonly<Record<string, string>> = {
  function_declaration: "function",
  generator_function_declaration: "function",
  function_definition: "function",
  function_item: "function",
  method_definition: "method",
  method_declaration: "method",
  method: "method",
  singleton_method: "method",
  constructor_declaration: "constructor",
  class_declaration: "class",
  abstract_class_declaration: "class",
  class_definition: "class",
  class_specifier: "class",
  class: "class",
  record_declaration: "class",
  struct_item: "struct",
  struct_specifier: "struct",
  struct_declaration: "struct",
  interface_declaration: "interface",
  trait_item: "trait",
  trait_declaration: "trait",
  enum_declaration: "enum",
  enum_item: "enum",
  enum_specifier: "enum",
  impl_item: "impl",
  mod_item: "module",
  module: "module",
  internal_module: "namespace",
  namespace_declaration: "namespace",
  namespace_definition: "namespace",
  type_alias_declaration: "type",
  type_spec: "type",
};

/** Kinds whose functions are methods. */
const TYPE_LIKE = new Set(["class", "struct", "interface", "trait", "impl"]);
/** Node types that describe the node after them (and so start its segment). */
const ATTACHED = new Set(["decorator", "attribute_item", "annotation", "marker_annotation", "attribute_list"]);
/** Value types that make `const f = () => …` a function definition. */
const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);
/** Nested definitions listed per whole segment at most (a huge generated file stays cheap). */
const MAX_SYMBOLS_PER_SEGMENT = 32;
const MAX_NAME_LENGTH = 200;
/** Kinds whose bodies are not searched for nested definitions (a helper inside a function is part of it). */
const CALLABLE = new Set(["function", "method", "constructor"]);
/** Non-definition levels walked below a definition looking for nested ones (class → body → member). */
const MAX_COLLECT_DEPTH = 3;

interface Segment {
  /** UTF-16 [start, end). */
  start: number;
  end: number;
  symbols: CodeSymbol[];
  within: CodeSymbol | null;
}

/** A definition's kind, or undefined when the node is not one. */
function definitionKind(node: SyntaxNode): string | undefined {
  const kind = DEFINITION_KINDS[node.type];
  if (kind) return kind;
  if (node.type === "variable_declarator") {
    const value = node.childForFieldName("value");
    if (value && FUNCTION_VALUES.has(value.type)) return "function";
  }
  return undefined;
}

/** A definition's own name: its `name` field, else what its grammar calls it. */
function definitionName(node: SyntaxNode): string {
  let name = node.childForFieldName("name")?.text;
  if (name === undefined && node.type === "impl_item") name = node.childForFieldName("type")?.text;
  if (name === undefined && node.type === "function_definition") name = declaratorName(node);
  if (name === undefined || name === "") return "(anonymous)";
  if (node.type === "method_declaration") {
    // Go: `func (t *T) M()` is T.M.
    const receiver = node.childForFieldName("receiver");
    const type = receiver?.text.match(/([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\)\s*$/)?.[1];
    if (type) name = `${type}.${name}`;
  }
  return name.replace(/::/g, ".").replace(/\s+/g, " ").slice(0, MAX_NAME_LENGTH);
}

/** C and C++: the identifier at the bottom of a function's declarator chain. */
function declaratorName(node: SyntaxNode): string | undefined {
  let d = node.childForFieldName("declarator");
  for (let depth = 0; d && depth < 8; depth++) {
    const next = d.childForFieldName("declarator");
    if (!next) return d.text;
    if (d.type === "function_declarator" && (next.type.endsWith("identifier") || next.type === "destructor_name" || next.type === "operator_name")) {
      return next.text;
    }
    d = next;
  }
  return undefined;
}

/** Each symbol's path from the outermost definition (`["class Collection", "method search"]`): a code chunk's heading path. */
const paths = new WeakMap<CodeSymbol, string[]>();

function symbolOf(node: SyntaxNode, enclosing: CodeSymbol | null): CodeSymbol | undefined {
  let kind = definitionKind(node);
  if (!kind) return undefined;
  const own = definitionName(node);
  if (kind === "function" && enclosing && TYPE_LIKE.has(enclosing.kind)) kind = "method";
  const symbol = { kind, name: enclosing && !own.includes(".") ? `${enclosing.name}.${own}` : own };
  paths.set(symbol, [...((enclosing && paths.get(enclosing)) ?? []), `${kind} ${own}`]);
  return symbol;
}

function isComment(node: SyntaxNode): boolean {
  return node.type.includes("comment");
}

function children(node: SyntaxNode): SyntaxNode[] {
  return node.namedChildren.filter((c): c is SyntaxNode => c !== null && c.endIndex > c.startIndex);
}

/** Cut a file into chunks along its syntax tree (see the file comment). */
export function chunkCode(content: string, root: SyntaxNode, chunkSize: number): CodeChunkSpan[] {
  const cpt = new CodePointText(content);
  const size = (a: number, b: number) => {
    const s = skipWs(content, a, b);
    return cpt.toCodePoint(trimEnd(content, b, s)) - cpt.toCodePoint(s);
  };
  const segments: Segment[] = [];

  /** Definitions inside a whole segment's node, outermost first. */
  // Walks only where definitions nest (a class's members, an export's declaration), never into function
  // bodies or deep expressions: every node visited crosses into WASM, which is what parsing-side time costs.
  const collect = (node: SyntaxNode, enclosing: CodeSymbol | null, out: CodeSymbol[], depth = 0): void => {
    if (out.length >= MAX_SYMBOLS_PER_SEGMENT || depth > MAX_COLLECT_DEPTH) return;
    const own = symbolOf(node, enclosing);
    if (own) out.push(own);
    if (own && CALLABLE.has(own.kind)) return;
    for (const c of children(node)) collect(c, own ?? enclosing, out, own ? 0 : depth + 1);
  };

  const byLines = (start: number, end: number, within: CodeSymbol | null): void => {
    const piece = content.slice(start, end);
    const spans = chunkText(piece, { chunkSize, chunkOverlap: 0, markdown: false });
    const local = new CodePointText(piece);
    let at = start;
    for (let i = 0; i < spans.length; i++) {
      const next = i + 1 < spans.length ? start + local.toUtf16(spans[i + 1]!.start) : end;
      segments.push({ start: at, end: next, symbols: [], within });
      at = next;
    }
    if (spans.length === 0) segments.push({ start, end, symbols: [], within });
  };

  const split = (node: SyntaxNode, start: number, end: number, enclosing: CodeSymbol | null): void => {
    if (size(start, end) <= chunkSize) {
      const symbols: CodeSymbol[] = [];
      // The file's root (a Python `module`) is no definition, whatever its grammar calls it.
      if (node === root) for (const c of children(node)) collect(c, null, symbols);
      else collect(node, enclosing, symbols);
      segments.push({ start, end, symbols, within: enclosing });
      return;
    }
    const inner = (node === root ? undefined : symbolOf(node, enclosing)) ?? enclosing;
    const units = unitStarts(content, children(node), start, end);
    if (units.length === 0) {
      byLines(start, end, inner);
      return;
    }
    if (units[0]!.start > start) segments.push({ start, end: units[0]!.start, symbols: [], within: inner });
    for (let i = 0; i < units.length; i++) {
      split(units[i]!.node, units[i]!.start, i + 1 < units.length ? units[i + 1]!.start : end, inner);
    }
  };

  split(root, 0, content.length, null);
  return pack(content, cpt, segments, chunkSize);
}

/**
 * Where each child's segment starts: at the child, or earlier at the
 * comments and decorators directly above it. A comment on the line of the
 * code before it, or separated from what follows by a blank line, is not
 * attached. Children starting outside [start, end) are left out.
 */
function unitStarts(content: string, kids: SyntaxNode[], start: number, end: number): Array<{ node: SyntaxNode; start: number }> {
  const units: Array<{ node: SyntaxNode; start: number }> = [];
  let pending: { node: SyntaxNode; start: number } | null = null;
  let previousEnd = start;
  for (let i = 0; i < kids.length; i++) {
    const kid = kids[i]!;
    if (kid.startIndex < previousEnd || kid.startIndex >= end) continue;
    const attaches = isComment(kid) || ATTACHED.has(kid.type);
    // A trailing comment on the same line stays with the code before it.
    if (isComment(kid) && units.length > 0 && pending === null && !content.slice(previousEnd, kid.startIndex).includes("\n")) {
      previousEnd = kid.endIndex;
      continue;
    }
    const next = kids[i + 1];
    const attachedToNext = attaches && next !== undefined && !/\n[ \t]*\n/.test(content.slice(kid.endIndex, next.startIndex));
    if (attachedToNext) {
      pending ??= { node: kid, start: kid.startIndex };
    } else {
      units.push({ node: kid, start: pending?.start ?? kid.startIndex });
      pending = null;
    }
    previousEnd = kid.endIndex;
  }
  if (pending) units.push(pending);
  return units;
}

/** Merge neighbouring segments into chunks (see the file comment) and turn them into trimmed spans. */
function pack(content: string, cpt: CodePointText, segments: Segment[], chunkSize: number): CodeChunkSpan[] {
  // Measured on evals/code (docs/decisions/0021-code-chunking.md): a definition of half a chunk or more stands alone.
  const small = Math.floor(chunkSize / 2);
  const lengthOf = (a: number, b: number) => {
    const s = skipWs(content, a, b);
    return cpt.toCodePoint(trimEnd(content, b, s)) - cpt.toCodePoint(s);
  };
  const isAnchor = (s: Segment) => s.symbols.length > 0 && lengthOf(s.start, s.end) >= small;
  interface Group {
    start: number;
    end: number;
    symbols: CodeSymbol[];
    /** Definitions the group holds parts of, with how much of each (code points). */
    partial: Map<string, { symbol: CodeSymbol; size: number }>;
    anchor: boolean;
  }
  const addPartial = (g: Group, seg: Segment) => {
    if (!seg.within) return;
    const key = `${seg.within.kind} ${seg.within.name}`;
    const had = g.partial.get(key);
    const size = lengthOf(seg.start, seg.end);
    if (had) had.size += size;
    else g.partial.set(key, { symbol: seg.within, size });
  };
  const groups: Group[] = [];
  for (const seg of segments) {
    const last = groups[groups.length - 1];
    if (last) {
      const merged = lengthOf(last.start, seg.end);
      const eitherSmall = lengthOf(last.start, last.end) < small || lengthOf(seg.start, seg.end) < small;
      const anchor = isAnchor(seg);
      if (merged <= chunkSize && (eitherSmall || (!last.anchor && !anchor))) {
        last.end = seg.end;
        // The chunk's first symbol labels it: a definition of its own size goes before the small ones it took in.
        if (anchor && !last.anchor) last.symbols.unshift(...seg.symbols);
        else last.symbols.push(...seg.symbols);
        last.anchor ||= anchor;
        addPartial(last, seg);
        continue;
      }
    }
    const g: Group = { start: seg.start, end: seg.end, symbols: [...seg.symbols], partial: new Map(), anchor: isAnchor(seg) };
    addPartial(g, seg);
    groups.push(g);
  }
  const spans: CodeChunkSpan[] = [];
  for (const g of groups) {
    const s = skipWs(content, g.start, g.end);
    const e = trimEnd(content, g.end, s);
    if (e <= s) continue;
    const start = cpt.toCodePoint(s);
    const end = cpt.toCodePoint(e);
    const { startLine, endLine } = cpt.lineRange(start, end);
    const within = [...g.partial.values()].sort((a, b) => b.size - a.size).map((p) => p.symbol);
    const label = g.symbols[0] ?? within[0];
    const headingPath = (label && paths.get(label)) ?? [];
    spans.push({ start, end, startLine, endLine, text: content.slice(s, e), headingPath, symbols: g.symbols, within });
  }
  return spans;
}

function skipWs(text: string, u: number, max: number): number {
  while (u < max && isWs(text.charCodeAt(u))) u++;
  return u;
}

function trimEnd(text: string, u: number, min: number): number {
  while (u > min && isWs(text.charCodeAt(u - 1))) u--;
  return u;
}

const WS = /\s/;

/** Whitespace as `\s` and `String.prototype.trim` define it (the text chunker's rule), ASCII fast. */
function isWs(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return WS.test(String.fromCharCode(c));
}

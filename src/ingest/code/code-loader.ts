/**
 * The loader of code and data files: `text`-class documents (the file's own
 * text, decoded and normalized as any text file, so citations verify the same
 * way) that carry their language and, for code, the syntax tree the chunker
 * cuts along. A file whose grammar cannot load or whose parse has errors is
 * chunked by lines, and says why.
 */
import type { SourceFileKind } from "../../core/code-languages.js";
import { decodeTextContent } from "../../source/text-loader.js";
import { grammarPackageIdentity, parserFor, type SyntaxNode, type SyntaxTree } from "./grammars.js";
import { skippedContentReason } from "./skip-rules.js";

/** What a code or data document adds to its loaded content. */
export interface CodeContent {
  /** Language name (`typescript`, `python`, `json`, …). */
  lang: string;
  /** The parsed tree of a code file; the chunker deletes it once used. */
  tree?: SyntaxTree | undefined;
  /** Why a code file is chunked by lines instead of its syntax. */
  fallback?: string | undefined;
}

/** Bumped when syntax chunking would cut the same file differently; folded into code files' fingerprints. */
const SYNTAX_CHUNKING_REVISION = "syntax-1";

/** What the code loader gives: the decoded content, and either its code part or why it is skipped. */
export interface LoadedCode {
  content: string;
  code?: CodeContent | undefined;
  /** Minified or generated: not indexed (named in the ingest summary). */
  skip?: string | undefined;
}

/** Folded into a code file's fingerprint with the text loader's identity (undefined for data files). */
export function codeLoaderRevision(file: SourceFileKind): string | undefined {
  // The grammar package's version: a new grammar may parse (and so chunk) a file differently.
  return file.kind === "code" ? `${SYNTAX_CHUNKING_REVISION}/${grammarPackageIdentity()}` : undefined;
}

/** Decode a code or data file and, for code, parse it (loading its grammar on first use). */
export async function loadCode(file: SourceFileKind, bytes: Uint8Array, label: string, charset?: string): Promise<LoadedCode> {
  const content = decodeTextContent(bytes, label, charset);
  const skip = skippedContentReason(content);
  if (skip) return { content, skip };
  if (file.kind === "data") return { content, code: { lang: file.lang } };
  const lang = file.language.name;
  if (content.trim() === "") return { content, code: { lang } };
  let tree: SyntaxTree | null;
  try {
    tree = (await parserFor(file.language.grammar)).parse(content);
  } catch (err) {
    return { content, code: { lang, fallback: `chunked by lines: ${(err as Error).message}` } };
  }
  if (!tree) return { content, code: { lang, fallback: "chunked by lines: the parser gave no tree" } };
  if (tree.rootNode.hasError) {
    const line = firstErrorLine(tree.rootNode);
    tree.delete();
    return { content, code: { lang, fallback: `chunked by lines: syntax error${line ? ` near line ${line}` : ""} (${file.language.grammar} grammar)` } };
  }
  return { content, code: { lang, tree } };
}

/** The 1-based line of the first error or missing node, walking only into subtrees that have one. */
function firstErrorLine(node: SyntaxNode): number | undefined {
  for (let depth = 0; depth < 256; depth++) {
    if (node.type === "ERROR" || node.isMissing) return node.startPosition.row + 1;
    const next = node.namedChildren.find((c) => c !== null && (c.hasError || c.isMissing || c.type === "ERROR"));
    if (!next) return node.startPosition.row + 1;
    node = next;
  }
  return undefined;
}

/**
 * Tree-sitter grammars, loaded lazily: web-tree-sitter and the grammar WASM
 * files of @vscode/tree-sitter-wasm are read only when the first code file of a
 * language is ingested (docs/decisions/0021-code-chunking.md), then kept for
 * the life of the process. A grammar that cannot load is a typed error the
 * code loader turns into line chunking, never a failed ingest.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { GroundkitError } from "../../core/errors.js";
import { resolveOptional } from "../../core/optional-packages.js";

/** The package that ships web-tree-sitter and the grammars; its version is part of the code loader's revision. */
export const GRAMMAR_PACKAGE = "@vscode/tree-sitter-wasm";

/** The parts of web-tree-sitter's API the chunker uses (its own typings describe more). */
export interface SyntaxNode {
  type: string;
  startIndex: number;
  endIndex: number;
  startPosition: { row: number; column: number };
  hasError: boolean;
  isMissing: boolean;
  namedChildren: Array<SyntaxNode | null>;
  childForFieldName(name: string): SyntaxNode | null;
  text: string;
}

export interface SyntaxTree {
  rootNode: SyntaxNode;
  delete(): void;
}

export interface CodeParser {
  parse(text: string): SyntaxTree | null;
}

interface TreeSitterModule {
  Parser: { init(): Promise<void>; new (): { setLanguage(l: unknown): void; parse(t: string): SyntaxTree | null } };
  Language: { load(path: string): Promise<unknown> };
}

const require = createRequire(import.meta.url);
let runtime: Promise<{ module: TreeSitterModule; dir: string }> | undefined;
const parsers = new Map<string, Promise<CodeParser>>();

function loadRuntime(): Promise<{ module: TreeSitterModule; dir: string }> {
  runtime ??= (async () => {
    // An optional dependency (ADR 0016): a BM25-only install has no grammars, and its code files are chunked by lines.
    const entry = resolveOptional(GRAMMAR_PACKAGE, () => require.resolve(GRAMMAR_PACKAGE));
    const module = require(GRAMMAR_PACKAGE) as TreeSitterModule;
    await module.Parser.init();
    return { module, dir: dirname(entry) };
  })();
  return runtime;
}

/**
 * The parser for a grammar (`typescript`, `python`, …), loading it on first use.
 * Throws EXTRACTION_FAILED naming the grammar when it cannot load.
 */
export function parserFor(grammar: string): Promise<CodeParser> {
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = (async () => {
      try {
        const { module, dir } = await loadRuntime();
        const language = await module.Language.load(join(dir, `tree-sitter-${grammar}.wasm`));
        const p = new module.Parser();
        p.setLanguage(language);
        return p;
      } catch (err) {
        if (err instanceof GroundkitError) throw err;
        throw new GroundkitError("EXTRACTION_FAILED", `The ${grammar} grammar of ${GRAMMAR_PACKAGE} could not be loaded: ${(err as Error).message}`);
      }
    })();
    // A failed load is not cached: the next file tries again (and says so again).
    parser.catch(() => parsers.delete(grammar));
    parsers.set(grammar, parser);
  }
  return parser;
}

/** `name@version` of the grammar package, read from its own package.json. */
export function grammarPackageIdentity(): string {
  try {
    const manifest = require(`${GRAMMAR_PACKAGE}/package.json`) as { version?: string };
    return `${GRAMMAR_PACKAGE}@${manifest.version ?? "unknown"}`;
  } catch {
    return `${GRAMMAR_PACKAGE}@missing`;
  }
}

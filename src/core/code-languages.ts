/**
 * Which files are source code or configuration, and in which language.
 * Code files are chunked along their syntax tree (ingest/code/syntax-chunker.ts) with the
 * grammar named here; configuration and data files are indexed as plain text.
 * Both are `text`-class documents: the content is the file's own text, so
 * citations verify exactly as for a .txt file.
 */
import { basename, extname } from "node:path";

/** A programming language groundkit chunks by its syntax. */
export interface CodeLanguage {
  /** The name recorded on documents and chunks and accepted by the `lang=` filter. */
  name: string;
  /** The grammar file of @vscode/tree-sitter-wasm (`tree-sitter-<grammar>.wasm`). */
  grammar: string;
}

const TYPESCRIPT: CodeLanguage = { name: "typescript", grammar: "typescript" };
const TSX: CodeLanguage = { name: "typescript", grammar: "tsx" };
const JAVASCRIPT: CodeLanguage = { name: "javascript", grammar: "javascript" };
const PYTHON: CodeLanguage = { name: "python", grammar: "python" };
// The package ships no C grammar: C is parsed by the C++ one, which accepts nearly all C.
const C: CodeLanguage = { name: "c", grammar: "cpp" };
const CPP: CodeLanguage = { name: "cpp", grammar: "cpp" };
const SHELL: CodeLanguage = { name: "shell", grammar: "bash" };

const CODE_BY_EXTENSION: Readonly<Record<string, CodeLanguage>> = {
  ".ts": TYPESCRIPT,
  ".mts": TYPESCRIPT,
  ".cts": TYPESCRIPT,
  ".tsx": TSX,
  ".js": JAVASCRIPT,
  ".mjs": JAVASCRIPT,
  ".cjs": JAVASCRIPT,
  ".jsx": JAVASCRIPT,
  ".py": PYTHON,
  ".pyi": PYTHON,
  ".go": { name: "go", grammar: "go" },
  ".rs": { name: "rust", grammar: "rust" },
  ".java": { name: "java", grammar: "java" },
  ".c": C,
  ".h": C,
  ".cc": CPP,
  ".cpp": CPP,
  ".cxx": CPP,
  ".hh": CPP,
  ".hpp": CPP,
  ".hxx": CPP,
  ".cs": { name: "csharp", grammar: "c-sharp" },
  ".rb": { name: "ruby", grammar: "ruby" },
  ".php": { name: "php", grammar: "php" },
  ".sh": SHELL,
  ".bash": SHELL,
};

/** Configuration and data files, indexed as plain text with line-exact citations. */
const DATA_BY_EXTENSION: Readonly<Record<string, string>> = {
  ".json": "json",
  ".jsonc": "json",
  ".yaml": "yaml",
  ".yml": "yaml",
  ".toml": "toml",
  ".ini": "ini",
  ".sql": "sql",
};

/** Configuration files known by their whole (lowercased) name rather than an extension. */
const DATA_BY_NAME: Readonly<Record<string, string>> = {
  dockerfile: "dockerfile",
  containerfile: "dockerfile",
  makefile: "makefile",
  gnumakefile: "makefile",
  ".env.example": "dotenv",
  ".env.sample": "dotenv",
  ".env.template": "dotenv",
};

/** Other names of a language a `lang=` filter accepts. */
const LANGUAGE_ALIASES: Readonly<Record<string, string>> = {
  ts: "typescript",
  tsx: "typescript",
  js: "javascript",
  jsx: "javascript",
  py: "python",
  golang: "go",
  rs: "rust",
  "c++": "cpp",
  cs: "csharp",
  "c#": "csharp",
  rb: "ruby",
  sh: "shell",
  bash: "shell",
  yml: "yaml",
  env: "dotenv",
};

/** What kind of file a path is, for the loaders: code (with its grammar), data (a language name), or neither. */
export type SourceFileKind = { kind: "code"; language: CodeLanguage } | { kind: "data"; lang: string };

/** The code or data kind of a file path, by its name then its extension; undefined for other files. */
export function sourceFileKind(path: string): SourceFileKind | undefined {
  const byName = DATA_BY_NAME[basename(path).toLowerCase()];
  if (byName) return { kind: "data", lang: byName };
  const ext = extname(path).toLowerCase();
  const code = Object.hasOwn(CODE_BY_EXTENSION, ext) ? CODE_BY_EXTENSION[ext] : undefined;
  if (code) return { kind: "code", language: code };
  const data = Object.hasOwn(DATA_BY_EXTENSION, ext) ? DATA_BY_EXTENSION[ext] : undefined;
  return data ? { kind: "data", lang: data } : undefined;
}

/** Extensions (lowercase, with dot) of code and data files. */
export function sourceFileExtensions(): string[] {
  return [...Object.keys(CODE_BY_EXTENSION), ...Object.keys(DATA_BY_EXTENSION)];
}

/** Whole file names (lowercase) of data files. */
export function sourceFileNames(): string[] {
  return Object.keys(DATA_BY_NAME);
}

const PROGRAMMING_LANGUAGES = new Set(Object.values(CODE_BY_EXTENSION).map((l) => l.name));

/** Whether a recorded `lang` is a programming language (chunked by syntax), not a configuration or data format. */
export function isProgrammingLanguage(lang: string): boolean {
  return PROGRAMMING_LANGUAGES.has(lang);
}

const LANGUAGE_NAMES = new Set([
  ...Object.values(CODE_BY_EXTENSION).map((l) => l.name),
  ...Object.values(DATA_BY_EXTENSION),
  ...Object.values(DATA_BY_NAME),
]);

/**
 * The recorded language name for what a user typed in `lang=` (`py` → `python`, `Go` → `go`);
 * anything else passes unchanged (a Markdown front matter may hold a `lang` of its own).
 */
export function canonicalLanguage(value: string): string {
  const lower = value.toLowerCase();
  if (Object.hasOwn(LANGUAGE_ALIASES, lower)) return LANGUAGE_ALIASES[lower]!;
  return LANGUAGE_NAMES.has(lower) ? lower : value;
}

/** A definition a code chunk holds: its kind and its name qualified by what encloses it. */
export interface CodeSymbol {
  /** `function`, `method`, `class`, `interface`, `struct`, `enum`, `trait`, `impl`, `module`, `namespace`, `type`, `constructor`. */
  kind: string;
  /** Qualified with `.` (`Collection.search`); `(anonymous)` when the definition has no name. */
  name: string;
}

/** What a chunk of a code file records about its code (kept in the chunk's metadata JSON). */
export interface ChunkCode {
  lang: string;
  /** Definitions the chunk holds whole, outermost first (nested ones included). */
  symbols: CodeSymbol[];
  /** Definitions the chunk holds parts of (ones too large for one chunk), the largest share first. */
  within: CodeSymbol[];
}

/**
 * How a code chunk is labelled (`method Collection.search`): its first whole
 * definition, else the definition it holds the largest part of; null when it holds neither.
 */
export function codeSymbolLabel(code: ChunkCode): string | null {
  const s = code.symbols[0] ?? code.within[0];
  return s ? `${s.kind} ${s.name}` : null;
}

/**
 * The names a `symbol=` filter matches a chunk by, lowercased: every qualified
 * name it holds or is part of, and each of their dotted suffixes
 * (`Collection.search` → `collection.search`, `search`).
 */
export function symbolKeys(code: ChunkCode): string[] {
  const keys = new Set<string>();
  for (const s of [...code.symbols, ...code.within]) {
    const parts = s.name.toLowerCase().split(".");
    for (let i = 0; i < parts.length; i++) keys.add(parts.slice(i).join("."));
  }
  return [...keys];
}

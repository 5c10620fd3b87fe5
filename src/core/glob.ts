/**
 * A path glob matcher with a linear-time guarantee, for search filters
 * (`path=<glob>`) and ingest's --include/--exclude.
 *
 * Why not a regex library: globs compiled to backtracking regexes take
 * exponential time on patterns like `**\/+(*)+(*)+(*)x` or `*a*a*a*a*b`, and
 * they run synchronously on the server's event loop. Here a pattern is
 * brace-expanded (bounded) into alternatives, and each alternative is matched
 * by dynamic programming over (pattern segment × path segment) and, inside a
 * segment, (pattern atom × character): at most |alternative| × |path| steps,
 * never any backtracking.
 *
 * Syntax (anything else that a shell or picomatch would treat specially is refused):
 *   `/`            separates segments; nothing but a literal `/` matches it
 *   `*`            any run of characters within one segment (also `**` inside a segment)
 *   `**`           as a whole segment: zero or more whole segments
 *   `?`            one character
 *   `[abc]` `[a-z]` `[!a-z]` `[^a-z]`   one character of (not of) the class
 *   `{a,b,c}`      alternatives, nestable; `{a}` without a comma is literal
 *   `\x`           the character x, literally
 *   a leading `!`  negates the whole pattern; a leading `./` is dropped
 * Refused: extglobs `+(…)` `@(…)` `!(…)` `*(…)` `?(…)`, unescaped `(` `)`,
 * POSIX classes `[[:alpha:]]`, ranges `{1..9}`, a trailing `\`.
 *
 * With `dot: false` a segment's leading `.` is matched only by a literal `.`
 * (not by `*`, `?`, a class, or `**`), as in shells.
 *
 * @example
 *   const m = compileGlob("guides/{api,cli}/**\/*.md", { dot: true });
 *   m("guides/api/v1/auth.md"); // true
 */
import { GroundkitError, type ErrorCode } from "./errors.js";

/** Bounds on one pattern, so the cost of a match is bounded before any path is seen. */
export const GLOB_LIMITS = {
  /** UTF-16 code units of the pattern as written. */
  maxLength: 256,
  /** Alternatives after brace expansion. */
  maxAlternatives: 32,
  /** Summed length of all alternatives after brace expansion: the per-path cost factor. */
  maxExpandedLength: 2048,
} as const;

export interface GlobOptions {
  /** Whether wildcards match a segment's leading dot. */
  dot: boolean;
  /** The code a malformed or unsupported pattern is refused with (the caller's context). */
  errorCode?: ErrorCode;
}

/**
 * Counts the work a pattern makes a match do (steps: cells visited, atoms
 * tested), beyond reading the path once, so a caller can cap what one request
 * spends across many paths.
 */
export interface GlobMeter {
  /** Called with each batch of steps; throws to stop the match. */
  spend(steps: number): void;
}

/** A compiled glob: true when the whole path matches. */
export type GlobMatcher = (path: string, meter?: GlobMeter) => boolean;

type Atom =
  | { kind: "lit"; cp: number }
  | { kind: "one" }
  | { kind: "star" }
  | { kind: "class"; negated: boolean; ranges: number[] };
/** An atom that stands for exactly one character. */
type CharAtom = Exclude<Atom, { kind: "star" }>;
/** A segment's atoms split at each `*` into fixed-width pieces (head, middles, tail). */
interface Pieces {
  pieces: CharAtom[][];
  /** Whether the segment has a `*` (then head and tail may be empty). */
  starred: boolean;
  /** Code points the pieces need in all. */
  minLength: number;
  /** The segment's text when it has no wildcard at all. */
  literal: string | undefined;
}
type Segment = ({ globstar: true } | ({ globstar: false } & Pieces));
/** A path segment; its code points are computed only when a wildcard needs them. */
class PathSegment {
  private points: readonly number[] | undefined;
  constructor(readonly text: string) {}
  get cps(): readonly number[] {
    if (this.points === undefined) {
      const out: number[] = [];
      for (let i = 0; i < this.text.length; ) {
        const cp = this.text.codePointAt(i)!;
        out.push(cp);
        i += cp > 0xffff ? 2 : 1;
      }
      this.points = out;
    }
    return this.points;
  }
}

const UNMETERED: GlobMeter = { spend: () => undefined };

const DOT = 0x2e;
const SYNTAX_HINT =
  "Supported: * ** ? [a-z] [!a-z] {a,b} and \\ to escape; a leading ! negates. " +
  "Extglobs like +(…) @(…) !(…) *(…) ?(…), POSIX classes and {1..9} ranges are not supported.";

/**
 * Compile a glob into a matcher. Throws a GroundkitError (`errorCode`,
 * default INVALID_ARGUMENT) naming what is wrong and what is supported.
 */
export function compileGlob(pattern: string, opts: GlobOptions): GlobMatcher {
  const fail = (why: string): never => {
    throw new GroundkitError(opts.errorCode ?? "INVALID_ARGUMENT", `Glob '${pattern.slice(0, 80)}' ${why}. ${SYNTAX_HINT}`);
  };
  if (pattern.length > GLOB_LIMITS.maxLength) fail(`is longer than ${GLOB_LIMITS.maxLength} characters`);
  let body = pattern;
  let negated = false;
  while (body.startsWith("!") && !body.startsWith("!(")) {
    negated = !negated;
    body = body.slice(1);
  }
  checkUnsupported(body, fail);
  const alternatives = expandBraces(body, fail).map((alt) => parseSegments(alt, fail));
  const dot = opts.dot;
  return (path, meter = UNMETERED) => {
    const segments = path.split("/").map((text) => new PathSegment(text));
    const hit = alternatives.some((alt) => matchPath(alt, segments, dot, meter));
    return hit !== negated;
  };
}

/** Refuse extglob groups and bare parentheses before expansion, with the position's context. */
function checkUnsupported(p: string, fail: (why: string) => never): void {
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === "\\") {
      if (i + 1 >= p.length) fail("ends with a lone '\\'");
      i++;
    } else if (c === "[") {
      i = scanClass(p, i, fail)?.end ?? i;
    } else if (c === "(" || c === ")") {
      const prev = i > 0 ? p[i - 1]! : "";
      if (c === "(" && "+@!*?".includes(prev) && prev !== "") fail(`uses the extglob '${prev}(…)'`);
      fail(`has an unescaped '${c}' (write \\${c} to match it literally)`);
    }
  }
}

/**
 * Scan a `[...]` class starting at `start` (the `[`): its end index and atom,
 * or undefined when there is no closing `]` within the segment (then `[` is literal).
 */
function scanClass(p: string, start: number, fail: (why: string) => never): { end: number; atom: Atom } | undefined {
  let i = start + 1;
  let negated = false;
  if (p[i] === "!" || p[i] === "^") {
    negated = true;
    i++;
  }
  const cps: number[] = [];
  let first = true;
  while (i < p.length) {
    let c = p.codePointAt(i)!;
    let width = c > 0xffff ? 2 : 1;
    if (c === 0x5d /* ] */ && !first) return { end: i, atom: { kind: "class", negated, ranges: cps } };
    if (c === 0x2f /* / */) return undefined;
    if (c === 0x5b /* [ */ && p[i + 1] === ":") fail("uses a POSIX class like [[:alpha:]] (write the range, e.g. [a-zA-Z])");
    if (c === 0x5c /* \ */) {
      if (i + 1 >= p.length) return undefined;
      c = p.codePointAt(i + 1)!;
      width = 1 + (c > 0xffff ? 2 : 1);
    }
    first = false;
    i += width;
    // A range `lo-hi` unless the '-' is last before ']'.
    if (p[i] === "-" && i + 1 < p.length && p[i + 1] !== "]") {
      let hi = p.codePointAt(i + 1)!;
      let hiWidth = hi > 0xffff ? 2 : 1;
      if (hi === 0x5c) {
        if (i + 2 >= p.length) return undefined;
        hi = p.codePointAt(i + 2)!;
        hiWidth = 1 + (hi > 0xffff ? 2 : 1);
      }
      if (hi === 0x2f) return undefined;
      if (hi < c) fail(`has a reversed class range '${String.fromCodePoint(c)}-${String.fromCodePoint(hi)}'`);
      cps.push(c, hi);
      i += 1 + hiWidth;
    } else {
      cps.push(c, c);
    }
  }
  return undefined;
}

/**
 * Expand `{a,b}` groups into alternative patterns (escapes and classes kept
 * verbatim; braces without a top-level comma, or without a partner, become
 * escaped literals), refusing expansions past the limits.
 */
function expandBraces(p: string, fail: (why: string) => never): string[] {
  const partner = pairBraces(p, fail);
  let i = 0;
  const product = (left: string[], right: string[]): string[] => {
    if (left.length * right.length > GLOB_LIMITS.maxAlternatives) {
      fail(`expands to more than ${GLOB_LIMITS.maxAlternatives} alternatives`);
    }
    return left.flatMap((l) => right.map((r) => l + r));
  };
  const sequence = (depth: number): string[] => {
    let outs = [""];
    const append = (s: string): void => {
      outs = outs.map((o) => o + s);
    };
    while (i < p.length) {
      const c = p[i]!;
      if (c === "\\") {
        const width = 1 + (p.codePointAt(i + 1)! > 0xffff ? 2 : 1);
        append(p.slice(i, i + width));
        i += width;
      } else if (c === "[") {
        const cls = scanClass(p, i, fail);
        append(cls ? p.slice(i, cls.end + 1) : "\\[");
        i = cls ? cls.end + 1 : i + 1;
      } else if (depth > 0 && (c === "," || c === "}")) {
        break;
      } else if (c === "{" && partner.has(i)) {
        const close = partner.get(i)!;
        const inner = p.slice(i + 1, close);
        const groups: string[][] = [];
        i++;
        for (;;) {
          groups.push(sequence(depth + 1));
          if (p[i] !== ",") break;
          i++;
        }
        i++; // the matching '}'
        if (groups.length === 1) {
          if (/^-?\w+\.\.-?\w+(\.\.-?\d+)?$/.test(inner)) fail("uses a range like {1..9} (list the values: {1,2,3})");
          outs = product(outs, groups[0]!.map((g) => `\\{${g}\\}`));
        } else {
          outs = product(outs, groups.flat());
        }
      } else {
        append("{},".includes(c) ? `\\${c}` : c);
        i++;
      }
    }
    return outs;
  };
  const alternatives = sequence(0);
  const total = alternatives.reduce((n, a) => n + a.length, 0);
  if (total > GLOB_LIMITS.maxExpandedLength) fail(`expands to more than ${GLOB_LIMITS.maxExpandedLength} characters`);
  return alternatives;
}

/** Each '{' that has a matching '}' (escapes and classes skipped), by index; one linear pass. */
function pairBraces(p: string, fail: (why: string) => never): Map<number, number> {
  const pairs = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === "\\") i++;
    else if (c === "[") i = scanClass(p, i, fail)?.end ?? i;
    else if (c === "{") open.push(i);
    else if (c === "}" && open.length > 0) pairs.set(open.pop()!, i);
  }
  return pairs;
}

/** Split one brace-free alternative into segments of atoms. */
function parseSegments(alt: string, fail: (why: string) => never): Segment[] {
  let p = alt;
  while (p.startsWith("./")) p = p.slice(2);
  const segments: Segment[] = [];
  let atoms: Atom[] = [];
  const close = (): void => {
    segments.push({ globstar: false, ...toPieces(atoms) });
    atoms = [];
  };
  let i = 0;
  while (i < p.length) {
    const cp = p.codePointAt(i)!;
    const c = p[i]!;
    if (c === "/" || (c === "\\" && p[i + 1] === "/")) {
      close();
      i += c === "/" ? 1 : 2;
    } else if (c === "\\") {
      const lit = p.codePointAt(i + 1)!;
      atoms.push({ kind: "lit", cp: lit });
      i += 1 + (lit > 0xffff ? 2 : 1);
    } else if (c === "*") {
      let run = 0;
      while (p[i] === "*") {
        run++;
        i++;
      }
      if (run === 2 && atoms.length === 0 && (i === p.length || p[i] === "/")) {
        // `**` as a whole segment; consecutive ones are one.
        const last = segments[segments.length - 1];
        if (!(last && last.globstar)) segments.push({ globstar: true });
        if (p[i] === "/") i++;
        if (i === p.length) return segments;
      } else if (atoms[atoms.length - 1]?.kind !== "star") {
        atoms.push({ kind: "star" });
      }
    } else if (c === "?") {
      atoms.push({ kind: "one" });
      i++;
    } else if (c === "[") {
      const cls = scanClass(p, i, fail);
      if (cls) {
        atoms.push(cls.atom);
        i = cls.end + 1;
      } else {
        atoms.push({ kind: "lit", cp });
        i++;
      }
    } else {
      atoms.push({ kind: "lit", cp });
      i += cp > 0xffff ? 2 : 1;
    }
  }
  close();
  return segments;
}

function toPieces(atoms: readonly Atom[]): Pieces {
  const pieces: CharAtom[][] = [[]];
  for (const atom of atoms) {
    if (atom.kind === "star") pieces.push([]);
    else pieces[pieces.length - 1]!.push(atom);
  }
  const literal = atoms.every((a) => a.kind === "lit") ? String.fromCodePoint(...atoms.map((a) => (a as { cp: number }).cp)) : undefined;
  const minLength = pieces.reduce((n, p) => n + p.length, 0);
  return { pieces, starred: pieces.length > 1, minLength, literal };
}

/**
 * Does the alternative match the path's segments? reach[j]: the pattern
 * segments so far match path segments [0, j). O(pattern segments × path segments)
 * cells, each non-globstar cell one segment match.
 */
function matchPath(alt: readonly Segment[], path: readonly PathSegment[], dot: boolean, meter: GlobMeter): boolean {
  const n = path.length;
  let reach = new Uint8Array(n + 1);
  reach[0] = 1;
  for (const seg of alt) {
    meter.spend(n + 1);
    const next = new Uint8Array(n + 1);
    let any = false;
    if (seg.globstar) {
      let open = false;
      for (let j = 0; j <= n; j++) {
        if (open && j > 0 && !wildcardMayMatch(path[j - 1]!.text, dot)) open = false;
        if (reach[j]) open = true;
        if (open) next[j] = 1;
        any ||= open;
      }
    } else {
      for (let j = 0; j < n; j++) {
        if (reach[j] && matchSegment(seg, path[j]!, dot, meter)) {
          next[j + 1] = 1;
          any = true;
        }
      }
    }
    if (!any) return false;
    reach = next;
  }
  return reach[n] === 1;
}

/**
 * Match one segment. Split by `*` into fixed-width pieces, a pattern
 * `head*m1*m2*…*tail` matches when head is a prefix, tail a suffix, and each
 * middle piece occurs, in order, in between; placing each middle piece at its
 * leftmost occurrence is never worse, so one forward scan decides (no
 * backtracking): at most |segment| × |piece| atom tests per piece.
 */
function matchSegment(seg: Pieces, path: PathSegment, dot: boolean, meter: GlobMeter): boolean {
  if (seg.literal !== undefined) return seg.literal === path.text;
  const text = path.cps;
  if (!wildcardMayMatch(path.text, dot)) {
    const first = seg.pieces[0]?.[0];
    if (path.text === "." || path.text === ".." || !(first?.kind === "lit" && first.cp === DOT)) return false;
  }
  const { pieces, starred } = seg;
  meter.spend(seg.minLength);
  if (!starred) return pieces[0]!.length === text.length && pieceAt(pieces[0]!, text, 0);
  if (seg.minLength > text.length) return false;
  const head = pieces[0]!;
  const tail = pieces[pieces.length - 1]!;
  if (!pieceAt(head, text, 0) || !pieceAt(tail, text, text.length - tail.length)) return false;
  let from = head.length;
  const limit = text.length - tail.length;
  for (let k = 1; k < pieces.length - 1; k++) {
    const piece = pieces[k]!;
    let at = from;
    while (at + piece.length <= limit && !pieceAt(piece, text, at)) at++;
    // Each tried position reads at most the piece's width.
    meter.spend((at - from + 1) * piece.length);
    if (at + piece.length > limit) return false;
    from = at + piece.length;
  }
  return true;
}

/** Does the fixed-width piece match text at `at`? */
function pieceAt(piece: readonly CharAtom[], text: readonly number[], at: number): boolean {
  for (let k = 0; k < piece.length; k++) if (!atomMatches(piece[k]!, text[at + k]!)) return false;
  return true;
}

/**
 * Whether a wildcard may stand for this segment's start: never for `.` and
 * `..`, and for a leading dot only with dot on (as picomatch and shells do).
 */
function wildcardMayMatch(segment: string, dot: boolean): boolean {
  if (segment === "." || segment === "..") return false;
  return dot || !segment.startsWith(".");
}

function atomMatches(atom: CharAtom, cp: number): boolean {
  switch (atom.kind) {
    case "lit":
      return atom.cp === cp;
    case "one":
      return true;
    case "class": {
      let inside = false;
      for (let k = 0; k < atom.ranges.length; k += 2) {
        if (cp >= atom.ranges[k]! && cp <= atom.ranges[k + 1]!) {
          inside = true;
          break;
        }
      }
      return inside !== atom.negated;
    }
  }
}

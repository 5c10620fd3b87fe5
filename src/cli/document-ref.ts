/**
 * How the CLI reads a document reference: a URL as it is; a path (relative to
 * the working directory, as the CLI prints them) made absolute; a short or full
 * document id when no file of that name exists here.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { looksLikeIdPrefix } from "../core/id-prefix.js";
import { hasUrlScheme } from "../net/url-shape.js";

/** The library reference for what a user typed (see the module comment). */
export function documentRef(typed: string): string {
  if (hasUrlScheme(typed)) return typed;
  const abs = resolve(typed);
  if (looksLikeIdPrefix(typed) && !existsSync(abs)) return typed;
  return abs;
}

/** A reference with an optional `:start-end` line range (`:12`, `:12-30`, `:12-`). */
export interface RangedRef {
  ref: string;
  startLine?: number | undefined;
  endLine?: number | undefined;
}

const RANGE = /^(.+):([0-9]{1,9})(?:(-)([0-9]{1,9})?)?$/;

/**
 * Split `path:12-30` into the reference and its lines. `exists` says whether
 * the whole text names a document, so a path that itself ends in `:12` still works.
 */
export async function parseRangedRef(typed: string, exists: (ref: string) => Promise<boolean>): Promise<RangedRef> {
  const m = RANGE.exec(typed);
  if (!m || (await exists(documentRef(typed)))) return { ref: documentRef(typed) };
  const start = Number(m[2]);
  const end = m[3] ? (m[4] !== undefined ? Number(m[4]) : undefined) : start;
  return { ref: documentRef(m[1]!), startLine: start, endLine: end };
}

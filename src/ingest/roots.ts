/**
 * The roots a collection was ingested from: each path or URL given to an
 * ingest, with the include/exclude globs and base dir it was given, recorded in
 * the collection (its meta table) so `grk update` can ingest them all again.
 * A root given again replaces its earlier record (the latest options win).
 */
import { z } from "zod";
import { isWithin } from "../core/containment.js";
import type { Store } from "../store/store.js";

const RootSchema = z.object({
  /** An absolute path (file or folder) or an http(s) URL as fetched. */
  source: z.string().min(1),
  kind: z.enum(["path", "url"]),
  /** The base dir given explicitly (null: the folder itself, or a file's parent). */
  base_dir: z.string().nullable(),
  include: z.array(z.string()),
  exclude: z.array(z.string()),
  /** When this root was last ingested. */
  ingested_at: z.string(),
});

/** One recorded root. */
export type IngestRoot = z.infer<typeof RootSchema>;

const META_KEY = "roots";

/** The collection's recorded roots, in source order; an unreadable record reads as none. */
export async function recordedRoots(store: Pick<Store, "getMeta">): Promise<IngestRoot[]> {
  const raw = await store.getMeta(META_KEY);
  if (!raw) return [];
  const parsed = z.array(RootSchema).safeParse(safeJson(raw));
  return parsed.success ? parsed.data : [];
}

/** Record (or re-record) roots; the caller holds the writer lock. */
export async function recordRoots(store: Pick<Store, "getMeta" | "setMeta">, roots: readonly IngestRoot[]): Promise<void> {
  if (roots.length === 0) return;
  const bySource = new Map((await recordedRoots(store)).map((r) => [r.source, r]));
  for (const r of roots) bySource.set(r.source, r);
  await writeRoots(store, [...bySource.values()]);
}

/**
 * Forget the path roots equal to `path` or under it (a removed folder must not
 * come back with the next update). Returns the forgotten sources.
 */
export async function forgetRootsUnder(store: Pick<Store, "getMeta" | "setMeta">, path: string): Promise<string[]> {
  const roots = await recordedRoots(store);
  const gone = roots.filter((r) => r.kind === "path" && (r.source === path || isWithin(r.source, path)));
  if (gone.length > 0) await writeRoots(store, roots.filter((r) => !gone.includes(r)));
  return gone.map((r) => r.source);
}

/** Forget one root exactly (a URL, or a path). */
export async function forgetRoot(store: Pick<Store, "getMeta" | "setMeta">, source: string): Promise<boolean> {
  const roots = await recordedRoots(store);
  const kept = roots.filter((r) => r.source !== source);
  if (kept.length === roots.length) return false;
  await writeRoots(store, kept);
  return true;
}

function writeRoots(store: Pick<Store, "setMeta">, roots: IngestRoot[]): Promise<void> {
  roots.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  return store.setMeta(META_KEY, JSON.stringify(roots));
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

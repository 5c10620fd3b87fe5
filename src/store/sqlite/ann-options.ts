/** The options of the SQLite store's vector index (ann-index.ts), apart so the graph-build thread can name them. */
import type { AnnSettings } from "./ann-native.js";

/** How the store answers dense search. */
export interface AnnOptions {
  /** `auto` (default): HNSW from `minVectors` vectors up; `exact`: always sqlite-vec. */
  mode?: "auto" | "exact";
  /** Below this many vectors search is exact (measured: bench/results/1m.md, "ANN vs exact"). */
  minVectors?: number;
  /** A filter passing at most this many chunks is searched exactly (default `DEFAULT_FILTER_EXACT_MAX` of ann-index.ts). */
  filterExactMax?: number;
  /** The native module to load (a test points it at one that is not installed). */
  module?: string;
  settings?: Partial<Omit<AnnSettings, "dimensions">>;
}

/**
 * Checks every vector store applies before it writes or searches a vector,
 * whatever the backend: the width, finite values, a direction (not all
 * zeros), and the unit-length copy cosine search runs on.
 */
import { GroundkitError } from "../core/errors.js";

export function checkDimensions(dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 8192) {
    throw new GroundkitError("INVALID_ARGUMENT", `Vector width must be an integer from 1 to 8192, got ${dimensions}.`);
  }
}

/** Refuse a vector of the wrong width, with a non-finite value or no direction; returns its sum of squares. */
export function checkVector(vector: Float32Array, dims: number): number {
  if (!(vector instanceof Float32Array) || vector.length !== dims) {
    throw new GroundkitError(
      "EMBEDDING_MISMATCH",
      `A ${vector?.length ?? "?"}-dimensional vector does not fit this collection's ${dims}-dimensional index.`,
      { stored: dims, given: vector?.length },
    );
  }
  // Sum of squares in double precision: float32 squares of tiny or huge components would underflow or overflow.
  let squares = 0;
  for (let i = 0; i < dims; i++) {
    const x = vector[i]!;
    if (!Number.isFinite(x)) {
      throw new GroundkitError("EMBEDDING_FAILED", `A vector holds a non-finite value at position ${i}.`);
    }
    squares += x * x;
  }
  if (squares === 0) {
    throw new GroundkitError("EMBEDDING_FAILED", "A vector is all zeros: it has no direction, so no cosine distance.");
  }
  return squares;
}

/** A unit-length copy (the caller's array is never changed), given the vector's sum of squares. */
export function unitCopy(vector: Float32Array, squares: number): Float32Array {
  const inv = 1 / Math.sqrt(squares);
  const unit = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) unit[i] = vector[i]! * inv;
  return unit;
}

/**
 * A chunk's vectors: one, or one per window of its text (window policy "max",
 * docs/decisions/0032-max-over-windows.md), the first window first. A chunk's
 * dense score is its best window's.
 */
export type ChunkVectors = Float32Array | readonly Float32Array[];

/** The most windows a chunk may have a vector for (the local provider's `max_windows` bound). */
export const MAX_CHUNK_WINDOWS = 64;

/**
 * A chunk's vectors as a list, first window first.
 *
 * @throws GroundkitError EMBEDDING_FAILED for no vector, or more than {@link MAX_CHUNK_WINDOWS}
 */
export function windowsOf(vectors: ChunkVectors): readonly Float32Array[] {
  const list = vectors instanceof Float32Array ? [vectors] : vectors;
  if (list.length < 1 || list.length > MAX_CHUNK_WINDOWS) {
    throw new GroundkitError("EMBEDDING_FAILED", `A chunk needs 1 to ${MAX_CHUNK_WINDOWS} window vectors, got ${list.length}.`);
  }
  return list;
}

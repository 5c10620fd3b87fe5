/**
 * Symmetric per-output-channel int8 quantization of a Linear layer's weight,
 * for onnxruntime's integer matrix kernels (`DynamicQuantizeMatMul`,
 * `QAttention`): each column j of the [in, out] matrix gets its own scale
 * s_j = max_i |w_ij| / 127 and q_ij = round(w_ij / s_j), zero point 0, so a
 * column's largest weight uses the whole int8 range whatever the others hold.
 * The activations are quantized at run time by the kernels themselves.
 */

/** An [in, out] int8 matrix with one float scale per output column. */
export interface QuantizedMatrix {
  data: Int8Array;
  scales: Float32Array;
}

/**
 * Quantize a row-major [rows = in, cols = out] float matrix per column.
 *
 * @example
 *   const { data, scales } = quantizePerColumn(weightInOut, 384, 1536);
 */
export function quantizePerColumn(matrix: Float32Array, rows: number, cols: number): QuantizedMatrix {
  const scales = new Float32Array(cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) scales[c] = Math.max(scales[c]!, Math.abs(matrix[r * cols + c]!));
  }
  // An all-zero column keeps scale 1: its codes are 0 either way, and a zero scale would divide by zero.
  for (let c = 0; c < cols; c++) scales[c] = scales[c]! > 0 ? scales[c]! / 127 : 1;
  const data = new Int8Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) data[r * cols + c] = Math.max(-127, Math.min(127, Math.round(matrix[r * cols + c]! / scales[c]!)));
  }
  return { data, scales };
}

/**
 * A standard BERT encoder as an ONNX graph, built from a checkpoint's tensors
 * (Hugging Face `BertModel` names): embeddings (word + position + token type
 * 0) → LayerNorm → N × [self-attention, residual LayerNorm, GELU (erf) FFN,
 * residual LayerNorm] → mean pooling over the attention mask. Inputs
 * `input_ids` and `attention_mask` (int64 [batch, seq]); output
 * `sentence_embedding` (float [batch, hidden]), not yet normalized.
 *
 * The layers are written with onnxruntime's fused CPU kernels (`com.microsoft`
 * Attention, SkipLayerNormalization, BiasGelu): the same arithmetic as the
 * plain-op graph (cosine 1.000000 on MED's abstracts) in ~60 nodes instead of
 * ~230, which onnxruntime's own optimizer does not reach from the plain ops
 * (docs/decisions/0008-long-chunk-embedding.md, "Speed").
 *
 * Under `precision: "int8"` every Linear layer (the packed Q/K/V projection,
 * the attention output and both FFN layers) multiplies in integers: weights
 * quantized per output channel at build time (quantize.ts), activations
 * quantized per tensor at run time by onnxruntime's `QAttention` (after a
 * `DynamicQuantizeLinear`) and `DynamicQuantizeMatMul`, whose CPU kernels use
 * AVX-512 VNNI / AVX2 integer dot products. Embeddings, LayerNorm, softmax,
 * GELU and pooling stay in float
 * (docs/decisions/0033-int8-inference.md).
 *
 * Single-text inputs only: every token type is 0, so the token-type embedding
 * is a constant row instead of a third input.
 */
import { GroundkitError } from "../../core/errors.js";
import { DataType, encodeModel, type Node, type Tensor } from "./onnx-proto.js";
import { quantizePerColumn } from "./quantize.js";
import type { FloatTensor } from "./safetensors.js";

/** The `config.json` fields the graph depends on. */
export interface BertConfig {
  hidden_size: number;
  num_hidden_layers: number;
  num_attention_heads: number;
  intermediate_size: number;
  layer_norm_eps: number;
  max_position_embeddings: number;
  hidden_act: string;
}

/** Bumped whenever the graph this file builds changes, so cached graphs are rebuilt. */
export const BERT_GRAPH_VERSION = 2;

/** The arithmetic of the Linear layers: float, or int8 weights × run-time int8 activations. */
export type GraphPrecision = "fp32" | "int8";

const OPSET = 17;
/** onnxruntime's contrib operators (Attention, SkipLayerNormalization, BiasGelu). */
const MS_DOMAIN = "com.microsoft";

function floatTensor(name: string, dims: number[], data: Float32Array): Tensor {
  return { name, dataType: DataType.FLOAT, dims, raw: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

function int8Tensor(name: string, dims: number[], data: Int8Array): Tensor {
  return { name, dataType: DataType.INT8, dims, raw: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

function int64Tensor(name: string, values: number[]): Tensor {
  return { name, dataType: DataType.INT64, dims: [values.length], raw: new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer) };
}

/** PyTorch Linear stores [out, in]; MatMul wants [in, out]. */
function transpose(t: FloatTensor): Float32Array {
  const [rows, cols] = t.shape as [number, number];
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = t.data[r * cols + c]!;
  return out;
}

/** Attention's packed projection: [in, 3·out], query columns, then key, then value (each PyTorch [out, in]). */
function packQkvWeights(parts: FloatTensor[], hidden: number): Float32Array {
  const packed = new Float32Array(hidden * 3 * hidden);
  parts.forEach((t, part) => {
    for (let o = 0; o < hidden; o++) for (let i = 0; i < hidden; i++) packed[i * 3 * hidden + part * hidden + o] = t.data[o * hidden + i]!;
  });
  return packed;
}

/**
 * Serialize the BERT graph for `weights` under `config` to ONNX bytes.
 *
 * @throws GroundkitError EMBEDDING_FAILED when a tensor is missing or the config is not a plain GELU BERT
 * @example
 *   const bytes = buildBertGraph(readSafetensors(buf, path), JSON.parse(configJson));
 */
export function buildBertGraph(weights: Map<string, FloatTensor>, config: BertConfig, precision: GraphPrecision = "fp32"): Uint8Array {
  if (config.hidden_act !== "gelu" || config.hidden_size % config.num_attention_heads !== 0) {
    throw new GroundkitError("EMBEDDING_FAILED", `Unsupported BERT config (hidden_act ${config.hidden_act}).`);
  }
  const H = config.hidden_size;
  const heads = config.num_attention_heads;
  const nodes: Node[] = [];
  const initializers: Tensor[] = [];
  const get = (name: string): FloatTensor => {
    const t = weights.get(name);
    if (t === undefined) throw new GroundkitError("EMBEDDING_FAILED", `The BERT weights lack tensor ${name}.`);
    return t;
  };
  const weight = (name: string): string => {
    const t = get(name);
    initializers.push(floatTensor(name, t.shape, t.data));
    return name;
  };
  const linearWeight = (name: string): string => {
    const t = get(name);
    initializers.push(floatTensor(`${name}.T`, [t.shape[1]!, t.shape[0]!], transpose(t)));
    return `${name}.T`;
  };
  const scalar = (name: string, value: number): string => {
    initializers.push(floatTensor(name, [], Float32Array.of(value)));
    return name;
  };
  const ints = (name: string, values: number[]): string => {
    initializers.push(int64Tensor(name, values));
    return name;
  };
  let counter = 0;
  const op = (type: string, inputs: string[], attributes?: Node["attributes"], domain?: string): string => {
    const out = `${type.toLowerCase()}_${counter++}`;
    nodes.push({ op: type, inputs, outputs: [out], ...(attributes ? { attributes } : {}), ...(domain ? { domain } : {}) });
    return out;
  };
  const contrib = (type: string, inputs: string[], attributes?: Node["attributes"]): string => op(type, inputs, attributes, MS_DOMAIN);
  const epsilon = { name: "epsilon", f: config.layer_norm_eps };
  /** LayerNorm(x + skip + bias): the residual add, the bias of the preceding Linear and the norm in one kernel. */
  const skipLayerNorm = (x: string, skip: string, bias: string, prefix: string): string =>
    contrib("SkipLayerNormalization", [x, skip, weight(`${prefix}.weight`), weight(`${prefix}.bias`), bias], [epsilon]);

  /** An [in, out] weight as int8 codes, per-column scales and (zero) zero points; answers the three names. */
  const quantized = (name: string, matrix: Float32Array, rows: number, cols: number): string[] => {
    const { data, scales } = quantizePerColumn(matrix, rows, cols);
    initializers.push(int8Tensor(`${name}.q`, [rows, cols], data));
    initializers.push(floatTensor(`${name}.scale`, [cols], scales));
    initializers.push(int8Tensor(`${name}.zero`, [cols], new Int8Array(cols)));
    return [`${name}.q`, `${name}.scale`, `${name}.zero`];
  };
  const matmul = (x: string, name: string): string => {
    if (precision === "fp32") return op("MatMul", [x, linearWeight(name)]);
    const t = get(name);
    return contrib("DynamicQuantizeMatMul", [x, ...quantized(name, transpose(t), t.shape[1]!, t.shape[0]!)]);
  };
  /** Self-attention over `x` with the packed projection; in int8, `x` is quantized once per call for QAttention. */
  const attention = (x: string, qkv: string, qkvWeight: Float32Array, qkvBias: Float32Array, mask: string): string => {
    const bias = `${qkv}.bias`;
    if (precision === "fp32") {
      initializers.push(floatTensor(`${qkv}.weight`, [H, 3 * H], qkvWeight));
      initializers.push(floatTensor(bias, [3 * H], qkvBias));
      return contrib("Attention", [x, `${qkv}.weight`, bias, mask], [{ name: "num_heads", i: heads }]);
    }
    const [w, wScale, wZero] = quantized(`${qkv}.weight`, qkvWeight, H, 3 * H);
    initializers.push(floatTensor(bias, [3 * H], qkvBias));
    const q = [`${x}_q`, `${x}_scale`, `${x}_zero`];
    nodes.push({ op: "DynamicQuantizeLinear", inputs: [x], outputs: q });
    return contrib("QAttention", [q[0]!, w!, bias, q[1]!, wScale!, mask, q[2]!, wZero!], [{ name: "num_heads", i: heads }]);
  };

  // Embeddings: positions are the first `seq` rows of the position table; token type 0 is folded in as the skip's bias.
  const seqLen = op("Slice", [op("Shape", ["input_ids"]), ints("one", [1]), ints("two", [2])]);
  const positions = op("Slice", [weight("embeddings.position_embeddings.weight"), ints("zero", [0]), seqLen, ints("axis0", [0])]);
  const typeRow = get("embeddings.token_type_embeddings.weight").data.slice(0, H);
  initializers.push(floatTensor("token_type_0", [H], typeRow));
  const words = op("Gather", [weight("embeddings.word_embeddings.weight"), "input_ids"], [{ name: "axis", i: 0 }]);
  let x = skipLayerNorm(words, op("Unsqueeze", [positions, ints("axes0", [0])]), "token_type_0", "embeddings.LayerNorm");

  // Attention's raw 0/1 key mask, [batch, seq] int32: padded keys get -10000 before the softmax (exp underflows to 0).
  const maskInt = op("Cast", ["attention_mask"], [{ name: "to", i: DataType.INT32 }]);

  for (let l = 0; l < config.num_hidden_layers; l++) {
    const p = `encoder.layer.${l}`;
    const self = `${p}.attention.self`;
    const parts = ["query", "key", "value"].map((n) => ({ weight: get(`${self}.${n}.weight`), bias: get(`${self}.${n}.bias`) }));
    const qkvBias = Float32Array.from(parts.flatMap((t) => Array.from(t.bias.data)));
    const context = attention(x, `${self}.qkv`, packQkvWeights(parts.map((t) => t.weight), H), qkvBias, maskInt);
    const attended = skipLayerNorm(
      matmul(context, `${p}.attention.output.dense.weight`),
      x,
      weight(`${p}.attention.output.dense.bias`),
      `${p}.attention.output.LayerNorm`,
    );
    // BiasGelu is the exact (erf) GELU of x + bias, as BERT's "gelu"; FastGelu would be the tanh approximation.
    const gelu = contrib("BiasGelu", [matmul(attended, `${p}.intermediate.dense.weight`), weight(`${p}.intermediate.dense.bias`)]);
    x = skipLayerNorm(matmul(gelu, `${p}.output.dense.weight`), attended, weight(`${p}.output.dense.bias`), `${p}.output.LayerNorm`);
  }

  // Mean pooling over attended tokens.
  const maskF = op("Cast", ["attention_mask"], [{ name: "to", i: DataType.FLOAT }]);
  const mask3 = op("Unsqueeze", [maskF, ints("axis2", [2])]);
  const summed = op("ReduceSum", [op("Mul", [x, mask3]), ints("axis1", [1])], [{ name: "keepdims", i: 0 }]);
  const counts = op("Max", [op("ReduceSum", [mask3, "axis1"], [{ name: "keepdims", i: 0 }]), scalar("tiny", 1e-9)]);
  nodes.push({ op: "Div", inputs: [summed, counts], outputs: ["sentence_embedding"] });

  return encodeModel({
    opset: OPSET,
    extraOpsets: { [MS_DOMAIN]: 1 },
    producer: "groundkit",
    nodes,
    initializers,
    inputs: [
      { name: "input_ids", elemType: DataType.INT64, shape: ["batch", "sequence"] },
      { name: "attention_mask", elemType: DataType.INT64, shape: ["batch", "sequence"] },
    ],
    outputs: [{ name: "sentence_embedding", elemType: DataType.FLOAT, shape: ["batch", H] }],
  });
}

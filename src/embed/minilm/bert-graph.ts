/**
 * A standard BERT encoder as an ONNX graph, built from a checkpoint's tensors
 * (Hugging Face `BertModel` names): embeddings (word + position + token type
 * 0) → LayerNorm → N × [self-attention, residual LayerNorm, GELU (erf) FFN,
 * residual LayerNorm] → mean pooling over the attention mask. Inputs
 * `input_ids` and `attention_mask` (int64 [batch, seq]); output
 * `sentence_embedding` (float [batch, hidden]), not yet normalized.
 *
 * Single-text inputs only: every token type is 0, so the token-type embedding
 * is a constant row instead of a third input.
 */
import { GroundkitError } from "../../core/errors.js";
import { DataType, encodeModel, type Node, type Tensor } from "./onnx-proto.js";
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
export const BERT_GRAPH_VERSION = 1;

const OPSET = 17;

function floatTensor(name: string, dims: number[], data: Float32Array): Tensor {
  return { name, dataType: DataType.FLOAT, dims, raw: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
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

/**
 * Serialize the BERT graph for `weights` under `config` to ONNX bytes.
 *
 * @throws GroundkitError EMBEDDING_FAILED when a tensor is missing or the config is not a plain GELU BERT
 * @example
 *   const bytes = buildBertGraph(readSafetensors(buf, path), JSON.parse(configJson));
 */
export function buildBertGraph(weights: Map<string, FloatTensor>, config: BertConfig): Uint8Array {
  if (config.hidden_act !== "gelu" || config.hidden_size % config.num_attention_heads !== 0) {
    throw new GroundkitError("EMBEDDING_FAILED", `Unsupported BERT config (hidden_act ${config.hidden_act}).`);
  }
  const H = config.hidden_size;
  const heads = config.num_attention_heads;
  const headDim = H / heads;
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
  const op = (type: string, inputs: string[], attributes?: Node["attributes"]): string => {
    const out = `${type.toLowerCase()}_${counter++}`;
    nodes.push({ op: type, inputs, outputs: [out], ...(attributes ? { attributes } : {}) });
    return out;
  };
  const layerNorm = (x: string, prefix: string): string =>
    op("LayerNormalization", [x, weight(`${prefix}.weight`), weight(`${prefix}.bias`)], [
      { name: "axis", i: -1 },
      { name: "epsilon", f: config.layer_norm_eps },
    ]);
  const linear = (x: string, prefix: string): string =>
    op("Add", [op("MatMul", [x, linearWeight(`${prefix}.weight`)]), weight(`${prefix}.bias`)]);

  // Embeddings: positions are the first `seq` rows of the position table.
  const seqLen = op("Slice", [op("Shape", ["input_ids"]), ints("one", [1]), ints("two", [2])]);
  const positions = op("Slice", [weight("embeddings.position_embeddings.weight"), ints("zero", [0]), seqLen, ints("axis0", [0])]);
  const typeRow = get("embeddings.token_type_embeddings.weight").data.slice(0, H);
  initializers.push(floatTensor("token_type_0", [H], typeRow));
  const words = op("Gather", [weight("embeddings.word_embeddings.weight"), "input_ids"], [{ name: "axis", i: 0 }]);
  let x = layerNorm(op("Add", [op("Add", [words, positions]), "token_type_0"]), "embeddings.LayerNorm");

  // Additive attention bias: 0 where attended, a large negative where padded, shaped [batch, 1, 1, seq].
  const maskF = op("Cast", ["attention_mask"], [{ name: "to", i: DataType.FLOAT }]);
  const bias = op("Unsqueeze", [
    op("Mul", [op("Sub", [scalar("one_f", 1), maskF]), scalar("neg_big", -1e9)]),
    ints("axes12", [1, 2]),
  ]);
  const splitHeads = ints("split_heads", [0, 0, heads, headDim]);
  const mergeHeads = ints("merge_heads", [0, 0, H]);
  const scale = scalar("attn_scale", 1 / Math.sqrt(headDim));
  const half = scalar("half", 0.5);
  const invSqrt2 = scalar("inv_sqrt2", Math.SQRT1_2);

  for (let l = 0; l < config.num_hidden_layers; l++) {
    const p = `encoder.layer.${l}`;
    const heads4 = (name: string, perm: number[]): string =>
      op("Transpose", [op("Reshape", [linear(x, `${p}.attention.self.${name}`), splitHeads])], [{ name: "perm", ints: perm }]);
    const q = heads4("query", [0, 2, 1, 3]);
    const k = heads4("key", [0, 2, 3, 1]);
    const v = heads4("value", [0, 2, 1, 3]);
    const scores = op("Add", [op("Mul", [op("MatMul", [q, k]), scale]), bias]);
    const probs = op("Softmax", [scores], [{ name: "axis", i: -1 }]);
    const context = op("Reshape", [
      op("Transpose", [op("MatMul", [probs, v])], [{ name: "perm", ints: [0, 2, 1, 3] }]),
      mergeHeads,
    ]);
    const attended = layerNorm(op("Add", [linear(context, `${p}.attention.output.dense`), x]), `${p}.attention.output.LayerNorm`);
    const inner = linear(attended, `${p}.intermediate.dense`);
    // GELU, exact form: x * 0.5 * (1 + erf(x / sqrt 2)).
    const gelu = op("Mul", [op("Mul", [inner, half]), op("Add", [scalar(`one_${l}`, 1), op("Erf", [op("Mul", [inner, invSqrt2])])])]);
    x = layerNorm(op("Add", [linear(gelu, `${p}.output.dense`), attended]), `${p}.output.LayerNorm`);
  }

  // Mean pooling over attended tokens.
  const mask3 = op("Unsqueeze", [maskF, ints("axis2", [2])]);
  const summed = op("ReduceSum", [op("Mul", [x, mask3]), ints("axis1", [1])], [{ name: "keepdims", i: 0 }]);
  const counts = op("Max", [op("ReduceSum", [mask3, "axis1"], [{ name: "keepdims", i: 0 }]), scalar("tiny", 1e-9)]);
  nodes.push({ op: "Div", inputs: [summed, counts], outputs: ["sentence_embedding"] });

  return encodeModel({
    opset: OPSET,
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

#!/usr/bin/env node
/**
 * Writes two TINY, deterministic, handmade ONNX model directories that
 * transformers.js can load the same way it loads a real sentence-transformers
 * export, so the `onnx` embedding provider and the `onnx` reranker are tested
 * offline on real inference code (tokenizer -> onnxruntime -> pooling):
 *
 *   <out>/tiny-embedder/  a BERT-shaped feature extractor:
 *       inputs input_ids / attention_mask / token_type_ids (int64 [batch, seq]),
 *       output last_hidden_state (float [batch, seq, 32]).
 *       Each token's state is a fixed embedding derived from a hash of the token
 *       string (identical words map to identical vectors, so shared words raise
 *       cosine similarity), plus half the masked mean of the sequence, so the
 *       [CLS] state depends on the whole input (CLS pooling is meaningful).
 *   <out>/tiny-reranker/  a BERT-shaped cross-encoder:
 *       same inputs, output logits (float [batch, 1]) = 6 * (share of the
 *       query's distinct tokens that also occur in the passage) - 3, so the
 *       sigmoid score grows with query/passage token overlap.
 *
 * Both share a small WordPiece vocabulary: special tokens, punctuation, a list
 * of common words, and single characters with `##` continuations, so an
 * unknown word is spelled out rather than collapsing into [UNK].
 *
 * Usage: node scripts/make-tiny-models.mjs <output-dir>
 * The bytes written depend only on this file: running it twice gives
 * identical files.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import protobuf from "protobufjs";

// --- the ONNX proto subset we write (field numbers as in onnx/onnx.proto3) ---
const ONNX_PROTO = `
syntax = "proto3";
package onnx;
message AttributeProto {
  string name = 1;
  float f = 2;
  int64 i = 3;
  bytes s = 4;
  TensorProto t = 5;
  repeated float floats = 7;
  repeated int64 ints = 8;
  int32 type = 20;
}
message ValueInfoProto {
  string name = 1;
  TypeProto type = 2;
}
message NodeProto {
  repeated string input = 1;
  repeated string output = 2;
  string name = 3;
  string op_type = 4;
  repeated AttributeProto attribute = 5;
  string domain = 7;
}
message ModelProto {
  int64 ir_version = 1;
  string producer_name = 2;
  string producer_version = 3;
  int64 model_version = 5;
  string doc_string = 6;
  GraphProto graph = 7;
  repeated OperatorSetIdProto opset_import = 8;
}
message GraphProto {
  repeated NodeProto node = 1;
  string name = 2;
  repeated TensorProto initializer = 5;
  repeated ValueInfoProto input = 11;
  repeated ValueInfoProto output = 12;
}
message TensorProto {
  repeated int64 dims = 1;
  int32 data_type = 2;
  string name = 8;
  bytes raw_data = 9;
}
message TensorShapeProto {
  message Dimension {
    oneof value {
      int64 dim_value = 1;
      string dim_param = 2;
    }
  }
  repeated Dimension dim = 1;
}
message TypeProto {
  message Tensor {
    int32 elem_type = 1;
    TensorShapeProto shape = 2;
  }
  oneof value {
    Tensor tensor_type = 1;
  }
}
message OperatorSetIdProto {
  string domain = 1;
  int64 version = 2;
}
`;

const FLOAT = 1;
const INT64 = 7;
const ATTR_INT = 2;
const OPSET = 17;
const IR_VERSION = 8;

/** Width of the tiny embedder's hidden state. */
const HIDDEN = 32;

// --- vocabulary ---
const SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
const PUNCT = [..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"];
const WORDS = `a about above after again all also an and any are as at be because been before being below between both
but by can cat cats chase chased chases could did do does dog dogs down during each few for from further had has have
having he her here hers him his how i if in into is it its just kitten kittens me more most my no nor not now of off on
once only or other our out over own passage puppy query same she should so some such than that the their them then there
these they this those through to too under until up very was we were what when where which while who whom why will with
would you your mat sat sits sitting sofa couch car cars engine engines drive drives road fast slow red blue green
database index search retrieval vector vectors embedding embeddings model models sentence sentences document documents
chunk chunks citation citations source sources verify verified python java code rust compiler weather rain sunny cloud
cloudy snow winter summer apple apples banana fruit fruits eat eats food kitchen cook cooking bread cheese music song
guitar piano play plays playing football game games team teams win wins won city cities river mountain mountains sea
ocean boat boats ship ships fish swim swims bird birds fly flies sky tree trees forest garden flower flowers`
  .split(/\s+/)
  .filter((w) => w !== "");
const CHARS = [..."abcdefghijklmnopqrstuvwxyz0123456789"];

/** Token strings in id order; ids are positions. Duplicates are removed keeping the first. */
function buildVocab() {
  const tokens = [...SPECIALS, ...PUNCT, ...WORDS, ...CHARS, ...CHARS.map((c) => `##${c}`)];
  const seen = new Set();
  return tokens.filter((t) => (seen.has(t) ? false : (seen.add(t), true)));
}

// --- deterministic weights ---
/** FNV-1a 32-bit over the UTF-8 bytes of a string. */
function fnv1a(text) {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text, "utf8")) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** mulberry32: a tiny integer PRNG; integer arithmetic only, so identical on every platform. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A unit vector derived only from the token string, scaled by `scale`. */
function tokenVector(token, scale) {
  const next = prng(fnv1a(token));
  const v = Array.from({ length: HIDDEN }, () => next() * 2 - 1);
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => (x / norm) * scale);
}

function floatBytes(values) {
  const arr = Float32Array.from(values);
  return new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength);
}

function int64Bytes(values) {
  const arr = BigInt64Array.from(values.map((v) => BigInt(v)));
  return new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength);
}

// --- graph helpers ---
const tensor = (name, dims, dataType, raw) => ({ name, dims, data_type: dataType, raw_data: raw });
const node = (opType, inputs, outputs, attrs = []) => ({
  op_type: opType,
  input: inputs,
  output: outputs,
  name: `${opType}_${outputs[0]}`,
  attribute: attrs,
});
const intAttr = (name, value) => ({ name, type: ATTR_INT, i: value });
const valueInfo = (name, elemType, dims) => ({
  name,
  type: {
    tensor_type: {
      elem_type: elemType,
      shape: { dim: dims.map((d) => (typeof d === "string" ? { dim_param: d } : { dim_value: d })) },
    },
  },
});
const BERT_INPUTS = ["input_ids", "attention_mask", "token_type_ids"].map((n) =>
  valueInfo(n, INT64, ["batch", "sequence"]),
);

/** Feature extractor: last_hidden_state = E[ids] + T[types] + 0.5 * masked_mean(E[ids] + T[types]). */
function embedderGraph(vocab) {
  const embedding = vocab.flatMap((token, id) => {
    if (id === 0) return new Array(HIDDEN).fill(0); // [PAD]
    // [CLS]/[SEP] are short vectors so they barely move a mean-pooled sentence.
    return tokenVector(token, token === "[CLS]" || token === "[SEP]" ? 0.2 : 1);
  });
  const typeEmbedding = new Array(2 * HIDDEN).fill(0);
  return {
    name: "tiny_embedder",
    initializer: [
      tensor("word_embeddings", [vocab.length, HIDDEN], FLOAT, floatBytes(embedding)),
      tensor("token_type_embeddings", [2, HIDDEN], FLOAT, floatBytes(typeEmbedding)),
      tensor("axis1", [1], INT64, int64Bytes([1])),
      tensor("axis2", [1], INT64, int64Bytes([2])),
      tensor("one", [], FLOAT, floatBytes([1])),
      tensor("context_weight", [], FLOAT, floatBytes([0.5])),
    ],
    node: [
      node("Gather", ["word_embeddings", "input_ids"], ["tok"], [intAttr("axis", 0)]),
      node("Gather", ["token_type_embeddings", "token_type_ids"], ["typ"], [intAttr("axis", 0)]),
      node("Add", ["tok", "typ"], ["emb"]),
      node("Cast", ["attention_mask"], ["mask_f"], [intAttr("to", FLOAT)]),
      node("Unsqueeze", ["mask_f", "axis2"], ["mask3"]),
      node("Mul", ["emb", "mask3"], ["masked"]),
      node("ReduceSum", ["masked", "axis1"], ["sum"], [intAttr("keepdims", 1)]),
      node("ReduceSum", ["mask3", "axis1"], ["count"], [intAttr("keepdims", 1)]),
      node("Max", ["count", "one"], ["count_safe"]),
      node("Div", ["sum", "count_safe"], ["mean"]),
      node("Mul", ["mean", "context_weight"], ["context"]),
      node("Add", ["emb", "context"], ["last_hidden_state"]),
    ],
    input: BERT_INPUTS,
    output: [valueInfo("last_hidden_state", FLOAT, ["batch", "sequence", HIDDEN])],
  };
}

/** Cross-encoder: logits = 6 * |distinct query tokens also in passage| / |distinct query tokens| - 3. */
function rerankerGraph(vocab) {
  const size = vocab.length;
  // One-hot rows; special tokens and punctuation get zero rows so they never count as overlap.
  const oneHot = new Array(size * size).fill(0);
  const ignored = new Set([...SPECIALS, ...PUNCT]);
  vocab.forEach((token, id) => {
    if (!ignored.has(token)) oneHot[id * size + id] = 1;
  });
  return {
    name: "tiny_reranker",
    initializer: [
      tensor("one_hot", [size, size], FLOAT, floatBytes(oneHot)),
      tensor("axis1", [1], INT64, int64Bytes([1])),
      tensor("axis2", [1], INT64, int64Bytes([2])),
      tensor("one", [], FLOAT, floatBytes([1])),
      tensor("scale", [], FLOAT, floatBytes([6])),
      tensor("bias", [], FLOAT, floatBytes([-3])),
    ],
    node: [
      node("Gather", ["one_hot", "input_ids"], ["oh"], [intAttr("axis", 0)]),
      node("Cast", ["attention_mask"], ["mask_f"], [intAttr("to", FLOAT)]),
      node("Cast", ["token_type_ids"], ["type_f"], [intAttr("to", FLOAT)]),
      node("Mul", ["mask_f", "type_f"], ["passage_w"]),
      node("Sub", ["mask_f", "passage_w"], ["query_w"]),
      node("Unsqueeze", ["passage_w", "axis2"], ["passage_w3"]),
      node("Unsqueeze", ["query_w", "axis2"], ["query_w3"]),
      node("Mul", ["oh", "query_w3"], ["query_oh"]),
      node("Mul", ["oh", "passage_w3"], ["passage_oh"]),
      node("ReduceSum", ["query_oh", "axis1"], ["query_bag"], [intAttr("keepdims", 0)]),
      node("ReduceSum", ["passage_oh", "axis1"], ["passage_bag"], [intAttr("keepdims", 0)]),
      node("Min", ["query_bag", "one"], ["query_has"]),
      node("Min", ["passage_bag", "one"], ["passage_has"]),
      node("Mul", ["query_has", "passage_has"], ["shared"]),
      node("ReduceSum", ["shared", "axis1"], ["overlap"], [intAttr("keepdims", 1)]),
      node("ReduceSum", ["query_has", "axis1"], ["query_count"], [intAttr("keepdims", 1)]),
      node("Max", ["query_count", "one"], ["query_count_safe"]),
      node("Div", ["overlap", "query_count_safe"], ["coverage"]),
      node("Mul", ["coverage", "scale"], ["scaled"]),
      node("Add", ["scaled", "bias"], ["logits"]),
    ],
    input: BERT_INPUTS,
    output: [valueInfo("logits", FLOAT, ["batch", 1])],
  };
}

function encodeModel(graph) {
  const root = protobuf.parse(ONNX_PROTO, { keepCase: true }).root;
  const ModelProto = root.lookupType("onnx.ModelProto");
  const message = {
    ir_version: IR_VERSION,
    producer_name: "groundkit-make-tiny-models",
    producer_version: "1",
    model_version: 1,
    doc_string: "A tiny handmade test model; not trained, not for real use.",
    opset_import: [{ domain: "", version: OPSET }],
    graph,
  };
  const problem = ModelProto.verify(message);
  if (problem) throw new Error(`invalid ONNX message: ${problem}`);
  return ModelProto.encode(ModelProto.create(message)).finish();
}

// --- tokenizer files (Hugging Face `tokenizers` JSON, BERT-style WordPiece) ---
function tokenizerJson(vocab) {
  const ids = Object.fromEntries(vocab.map((t, i) => [t, i]));
  const special = (id, typeId) => ({ SpecialToken: { id, type_id: typeId } });
  const sequence = (id, typeId) => ({ Sequence: { id, type_id: typeId } });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map((content) => ({
      id: ids[content],
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [special("[CLS]", 0), sequence("A", 0), special("[SEP]", 0)],
      pair: [special("[CLS]", 0), sequence("A", 0), special("[SEP]", 0), sequence("B", 1), special("[SEP]", 1)],
      special_tokens: {
        "[CLS]": { id: "[CLS]", ids: [ids["[CLS]"]], tokens: ["[CLS]"] },
        "[SEP]": { id: "[SEP]", ids: [ids["[SEP]"]], tokens: ["[SEP]"] },
      },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: ids,
    },
  };
}

const TOKENIZER_CONFIG = {
  tokenizer_class: "BertTokenizer",
  do_lower_case: true,
  model_max_length: 512,
  cls_token: "[CLS]",
  sep_token: "[SEP]",
  pad_token: "[PAD]",
  unk_token: "[UNK]",
  mask_token: "[MASK]",
  clean_up_tokenization_spaces: true,
};

function bertConfig(vocab, extra) {
  return {
    model_type: "bert",
    hidden_size: HIDDEN,
    vocab_size: vocab.length,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: HIDDEN,
    max_position_embeddings: 512,
    type_vocab_size: 2,
    pad_token_id: 0,
    ...extra,
  };
}

function writeJson(path, value) {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

function writeModelDir(dir, config, graph, vocab) {
  mkdirSync(join(dir, "onnx"), { recursive: true });
  writeJson(join(dir, "config.json"), config);
  writeJson(join(dir, "tokenizer.json"), tokenizerJson(vocab));
  writeJson(join(dir, "tokenizer_config.json"), TOKENIZER_CONFIG);
  writeJson(join(dir, "special_tokens_map.json"), {
    cls_token: "[CLS]",
    sep_token: "[SEP]",
    pad_token: "[PAD]",
    unk_token: "[UNK]",
    mask_token: "[MASK]",
  });
  writeFileSync(join(dir, "onnx", "model.onnx"), encodeModel(graph));
}

function main() {
  const out = process.argv[2];
  if (out === undefined || out === "") {
    console.error("usage: node scripts/make-tiny-models.mjs <output-dir>");
    process.exit(2);
  }
  const root = resolve(out);
  const vocab = buildVocab();
  writeModelDir(
    join(root, "tiny-embedder"),
    bertConfig(vocab, { architectures: ["BertModel"] }),
    embedderGraph(vocab),
    vocab,
  );
  writeModelDir(
    join(root, "tiny-reranker"),
    bertConfig(vocab, {
      architectures: ["BertForSequenceClassification"],
      id2label: { 0: "LABEL_0" },
      label2id: { LABEL_0: 0 },
    }),
    rerankerGraph(vocab),
    vocab,
  );
  console.log(`wrote ${join(root, "tiny-embedder")} and ${join(root, "tiny-reranker")} (vocab ${vocab.length})`);
}

main();

/**
 * The few ONNX protobuf messages a model graph needs (ModelProto, GraphProto,
 * NodeProto, TensorProto, ValueInfoProto, AttributeProto), written with a
 * tiny wire-format encoder. Field numbers are those of onnx/onnx.proto; only
 * what our BERT builder emits is covered, so nothing here parses models.
 */

/** ONNX TensorProto.DataType values used here. */
export const DataType = { FLOAT: 1, UINT8: 2, INT8: 3, INT32: 6, INT64: 7 } as const;

/** A named constant (weights, shapes, scalars). */
export interface Tensor {
  name: string;
  dataType: number;
  dims: number[];
  /** Little-endian element bytes. */
  raw: Uint8Array;
}

/** An attribute value: int, float, ints or a string. */
export type Attribute = { name: string } & (
  | { i: number }
  | { f: number }
  | { ints: number[] }
  | { s: string }
);

/** One graph node. */
export interface Node {
  op: string;
  /** Operator set domain; "" (the default) is standard ONNX, "com.microsoft" onnxruntime's contrib operators. */
  domain?: string;
  inputs: string[];
  outputs: string[];
  attributes?: Attribute[];
}

/** A graph input or output; a string dim is symbolic (e.g. "batch"). */
export interface ValueInfo {
  name: string;
  elemType: number;
  shape: Array<number | string>;
}

/** What {@link encodeModel} writes. */
export interface Model {
  /** Standard ONNX opset version. */
  opset: number;
  /** Further operator sets the nodes use, e.g. { "com.microsoft": 1 }. */
  extraOpsets?: Record<string, number>;
  producer: string;
  nodes: Node[];
  initializers: Tensor[];
  inputs: ValueInfo[];
  outputs: ValueInfo[];
}

/** Growable byte sink with protobuf's wire encodings. */
class Writer {
  private parts: Uint8Array[] = [];
  length = 0;

  private push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  /** Varint of a (possibly negative) 64-bit integer: negatives take ten bytes, as int64 requires. */
  varint(value: number): void {
    let v = BigInt.asUintN(64, BigInt(value));
    const out: number[] = [];
    while (v >= 0x80n) {
      out.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    out.push(Number(v));
    this.push(Uint8Array.from(out));
  }

  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  int(field: number, value: number): void {
    this.tag(field, 0);
    this.varint(value);
  }

  bytes(field: number, value: Uint8Array): void {
    this.tag(field, 2);
    this.varint(value.length);
    this.push(value);
  }

  string(field: number, value: string): void {
    this.bytes(field, new TextEncoder().encode(value));
  }

  float(field: number, value: number): void {
    this.tag(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.push(b);
  }

  message(field: number, build: (w: Writer) => void): void {
    const inner = new Writer();
    build(inner);
    this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

function writeTensor(w: Writer, t: Tensor): void {
  for (const d of t.dims) w.int(1, d);
  w.int(2, t.dataType);
  w.string(8, t.name);
  w.bytes(9, t.raw);
}

function writeAttribute(w: Writer, a: Attribute): void {
  w.string(1, a.name);
  // AttributeProto.AttributeType: FLOAT 1, INT 2, STRING 3, INTS 7.
  if ("f" in a) {
    w.float(2, a.f);
    w.int(20, 1);
  } else if ("i" in a) {
    w.int(3, a.i);
    w.int(20, 2);
  } else if ("s" in a) {
    w.string(4, a.s);
    w.int(20, 3);
  } else {
    for (const v of a.ints) w.int(8, v);
    w.int(20, 7);
  }
}

function writeValueInfo(w: Writer, v: ValueInfo): void {
  w.string(1, v.name);
  w.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.int(1, v.elemType);
      tensor.message(2, (shape) => {
        for (const d of v.shape) {
          shape.message(1, (dim) => (typeof d === "number" ? dim.int(1, d) : dim.string(2, d)));
        }
      });
    }),
  );
}

/**
 * Serialize a model to ONNX protobuf bytes (IR version 8).
 *
 * @example
 *   const bytes = encodeModel({ opset: 17, producer: "groundkit", nodes, initializers, inputs, outputs });
 *   await InferenceSession.create(bytes);
 */
export function encodeModel(model: Model): Uint8Array {
  const w = new Writer();
  w.int(1, 8); // ir_version
  w.string(2, model.producer);
  w.message(7, (g) => {
    model.nodes.forEach((n, index) => {
      g.message(1, (node) => {
        for (const i of n.inputs) node.string(1, i);
        for (const o of n.outputs) node.string(2, o);
        node.string(3, `${n.op}_${index}`);
        node.string(4, n.op);
        if (n.domain !== undefined && n.domain !== "") node.string(7, n.domain);
        for (const a of n.attributes ?? []) node.message(5, (attr) => writeAttribute(attr, a));
      });
    });
    g.string(2, "graph");
    for (const t of model.initializers) g.message(5, (tensor) => writeTensor(tensor, t));
    for (const v of model.inputs) g.message(11, (vi) => writeValueInfo(vi, v));
    for (const v of model.outputs) g.message(12, (vi) => writeValueInfo(vi, v));
  });
  w.message(8, (op) => {
    op.string(1, "");
    op.int(2, model.opset);
  });
  for (const [domain, version] of Object.entries(model.extraOpsets ?? {})) {
    w.message(8, (op) => {
      op.string(1, domain);
      op.int(2, version);
    });
  }
  return w.finish();
}

import { allProcessors } from "./json-schema-processors.js";
import type * as JSONSchema from "./json-schema.js";
import type { $ZodRegistry } from "./registries.js";
import type * as schemas from "./schemas.js";
import {
  type JSONSchemaGeneratorParams,
  type ProcessParams,
  type Seen,
  type ToJSONSchemaContext,
  extractDefs,
  finalize,
  initializeContext,
  processSchema,
} from "./to-json-schema.js";

export type EmitParams = Pick<JSONSchemaGeneratorParams, "cycles" | "reused" | "external">;

type JSONSchemaGeneratorConstructorParams = Pick<
  JSONSchemaGeneratorParams,
  "metadata" | "target" | "unrepresentable" | "override" | "io"
>;

export class JSONSchemaGenerator {
  private ctx: ToJSONSchemaContext;

  /** @deprecated Access via ctx instead */
  get metadataRegistry(): $ZodRegistry<Record<string, any>> {
    return this.ctx.metadataRegistry;
  }
  /** @deprecated Access via ctx instead */
  get target() {
    return this.ctx.target;
  }
  // annotated so the .d.cts emits an indexed access rather than an inline `import()` of an ESM path
  /** @deprecated Access via ctx instead */
  get unrepresentable(): ToJSONSchemaContext["unrepresentable"] {
    return this.ctx.unrepresentable;
  }
  /** @deprecated Access via ctx instead */
  get override() {
    return this.ctx.override;
  }
  /** @deprecated Access via ctx instead */
  get io() {
    return this.ctx.io;
  }
  /** @deprecated Access via ctx instead */
  get counter() {
    return this.ctx.counter;
  }
  set counter(value: number) {
    this.ctx.counter = value;
  }
  /** @deprecated Access via ctx instead */
  get seen(): Map<schemas.$ZodType, Seen> {
    return this.ctx.seen;
  }

  constructor(params?: JSONSchemaGeneratorConstructorParams) {
    // Normalize target for internal context
    let normalizedTarget: ToJSONSchemaContext["target"] = params?.target ?? "draft-2020-12";
    if (normalizedTarget === "draft-4") normalizedTarget = "draft-04";
    if (normalizedTarget === "draft-7") normalizedTarget = "draft-07";

    this.ctx = initializeContext({
      processors: allProcessors,
      target: normalizedTarget,
      ...(params?.metadata && { metadata: params.metadata }),
      ...(params?.unrepresentable && { unrepresentable: params.unrepresentable }),
      ...(params?.override && { override: params.override as any }),
      ...(params?.io && { io: params.io }),
    });
  }

  process(schema: schemas.$ZodType, _params: ProcessParams = { path: [], schemaPath: [] }): JSONSchema.BaseSchema {
    return processSchema(schema, this.ctx, _params);
  }

  emit(schema: schemas.$ZodType, _params?: EmitParams): JSONSchema.BaseSchema {
    // Apply emit params to the context
    if (_params) {
      if (_params.cycles) this.ctx.cycles = _params.cycles;
      if (_params.reused) this.ctx.reused = _params.reused;
      if (_params.external) this.ctx.external = _params.external;
    }

    // extractDefs/finalize skip their whole-map passes when they have already run for this `external`, but they also branch on `cycles`, `reused`, `seen.count` and the metadata registry — any of which can change between emits, including with no params at all. Drop the guards so the passes re-run. The registry conversion calls extractDefs/finalize directly and never routes through here, so it keeps skipping them.
    this.ctx.sharedDefsExtractedFor = undefined;
    this.ctx.sharedEmitDoneFor = undefined;

    extractDefs(this.ctx, schema);
    const result = finalize(this.ctx, schema);

    // Strip ~standard property to match old implementation's return type
    const { "~standard": _, ...plainResult } = result as any;
    return plainResult as JSONSchema.BaseSchema;
  }
}

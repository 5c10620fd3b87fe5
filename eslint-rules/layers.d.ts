/** Types of the layer rule (eslint-rules/layers.js), for the architecture test. */
export declare const ALLOWED: Record<string, string[]>;
export declare function layerOf(file: string): string | undefined;
declare const plugin: { rules: Record<string, unknown> };
export default plugin;

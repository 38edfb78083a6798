// Types for eslint.layers.mjs (plain JavaScript, as ESLint's flat config loads it), for the test that reads LIB_ORDER.
export declare const LIB_ORDER: readonly string[];
type Zone = { target: string | string[]; from: string | string[]; except?: string[]; message: string };
export declare const LAYER_ZONES: readonly Zone[];
export declare const layerRules: { files: string[]; rules: Record<string, unknown> };

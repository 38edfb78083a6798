import type { ImportFormat } from "../../db/enums";
import type { JsonShape } from "../read/json-shape";

/**
 * How one format is recognised, declared in its own folder (`<format>/detect.ts`) and walked in
 * the order of registry.ts: a record by its keys, a whole JSON document by its shape.
 */
export type FormatDetector = {
  format: ImportFormat;
  /** one independent record of this format (a JSONL line, an array element, a Parquet row's columns) */
  record?: (keys: Set<string>) => boolean;
  /** one whole JSON object of this format, from its top-level keys and those one level down */
  document?: (shape: JsonShape) => boolean;
};

/** Whether `keys` holds any of `names`. */
export const hasAny = (keys: Set<string> | undefined, ...names: string[]) => !!keys && names.some((n) => keys.has(n));

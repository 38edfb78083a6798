import type { FormatDeclaration } from "../format";
import { sweBenchPredictionsImporter } from "./import";

/** SWE-bench predictions, a candidate patch per line — or one object keyed by instance id (the harness's and mini-swe-agent's preds.json). */
export const sweBenchPredictions: FormatDeclaration = {
  format: "SWE_BENCH_PREDICTIONS",
  detect: { record: (keys) => keys.has("instance_id") && keys.has("model_patch"), keyedByInstance: true },
  records: (_ctx, chooseGenerator) => sweBenchPredictionsImporter(chooseGenerator),
};

import type { FormatDetector } from "../format-detector";

export const sweBenchPredictionsDetector: FormatDetector = {
  format: "SWE_BENCH_PREDICTIONS",
  record: (keys) => keys.has("instance_id") && keys.has("model_patch"),
};

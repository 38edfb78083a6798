import { hasAny, type FormatDetector } from "../format-detector";

export const openSweEnvironmentDetector: FormatDetector = {
  format: "OPENSWE_ENVIRONMENT",
  record: (keys) => keys.has("instance_id") && hasAny(keys, "dockerfile", "eval_script", "end_commit"),
};

import { hasAny, type FormatDetector } from "../format-detector";

export const sweBenchInstancesDetector: FormatDetector = {
  format: "SWE_BENCH_INSTANCES",
  record: (keys) =>
    keys.has("instance_id") && hasAny(keys, "problem_statement", "patch", "test_patch", "base_commit", "FAIL_TO_PASS"),
};

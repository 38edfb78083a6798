import { hasAny, type FormatDeclaration } from "../format";
import { sweBenchInstancesImporter } from "./import";

/** SWE-bench-style task rows (SWE-bench and its variants, SWE-Gym, SWE-smith, Multi-SWE-bench, our exports). */
export const sweBenchInstances: FormatDeclaration = {
  format: "SWE_BENCH_INSTANCES",
  detect: {
    record: (keys) =>
      keys.has("instance_id") &&
      hasAny(keys, "problem_statement", "patch", "test_patch", "base_commit", "FAIL_TO_PASS"),
  },
  records: (ctx) => sweBenchInstancesImporter(ctx.fileName, ctx.options.source),
};

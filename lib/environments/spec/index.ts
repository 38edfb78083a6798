// SWE-bench-family environments generated from the harness's specs: see README.md in this folder.
export type { SpecInstance, HarnessSpec, EnvironmentFiles } from "./types";
export { testCommandFor } from "./test-command";
export { harnessSpecFor } from "./harness-spec";
export { specBuildRecipe } from "./build-recipe";
export { SWE_BENCH_COMMIT, SWE_BENCH_REPOSITORY } from "./harness-data";

export type { SpecInstance, HarnessSpec, EnvironmentFiles } from "./types";
export { testCommandFor } from "./test-command";

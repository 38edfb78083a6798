import { hasAny, type FormatDetector } from "../format-detector";

export const r2eGymDetector: FormatDetector = {
  format: "R2E_GYM_TRAJECTORY",
  // R2E-Gym's Trajectory (model_dump_json per line): steps, and how the run ended
  record: (keys) => keys.has("trajectory_steps") && hasAny(keys, "output_patch", "exit_reason"),
};

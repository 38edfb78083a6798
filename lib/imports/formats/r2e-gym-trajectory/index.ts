import { hasAny, type FormatDeclaration } from "../format";
import { r2eGymImporter } from "./import";

/** R2E-Gym's Trajectory (model_dump_json per line): steps, and how the run ended. */
export const r2eGymTrajectory: FormatDeclaration = {
  format: "R2E_GYM_TRAJECTORY",
  detect: { record: (keys) => keys.has("trajectory_steps") && hasAny(keys, "output_patch", "exit_reason") },
  records: (_ctx, chooseGenerator) => r2eGymImporter(chooseGenerator),
};

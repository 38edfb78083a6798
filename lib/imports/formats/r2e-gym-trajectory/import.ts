import type { RecordImporter } from "../../import-records";
import { generatorOfFile, type ChooseGenerator } from "../../user-generator";
import { hashOf, writeTrajectoryLines, type TrajectoryLine } from "../../write/trajectory-files";
import { r2eGymRun } from "./map";

/** R2E-Gym trajectories: a run per JSONL line (or one record in a .json file); `--generator` names the run. */
export function r2eGymImporter(chooseGenerator: ChooseGenerator = generatorOfFile): RecordImporter<TrajectoryLine> {
  return {
    format: "R2E_GYM_TRAJECTORY",
    parse(value) {
      const sourceHash = hashOf(value);
      return { sourceHash, ...r2eGymRun(value, sourceHash, chooseGenerator) };
    },
    key: (line) => line.externalId,
    write: writeTrajectoryLines,
    batchSize: 20,
  };
}

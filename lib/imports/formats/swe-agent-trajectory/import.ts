import type { TrajectoryHeader } from "../../records/trajectory-record";
import { generatorChooser } from "../../user-generator";
import { writeSingleRunFile } from "../../write/trajectory-files";
import type { FormatContext } from "../format";
import { produceSweAgentTrajectory, type StepsFrom } from "./map";

// A .traj (or mini-swe-agent .traj.json) is one run: map (./map.ts) streams its steps, write
// keys it by content.

export async function importSweAgentDocument(ctx: FormatContext) {
  const { options, fileName } = ctx;
  const chooseGenerator = generatorChooser(ctx.run, options.generator);
  const withOptions = (header: TrajectoryHeader) => {
    const instanceId = options.instanceId ?? header.instanceId;
    return { ...header, instanceId, generator: chooseGenerator(header.model, instanceId ?? fileName) };
  };
  // a first look decides which list holds the steps: `trajectory` when it has any, else the chat
  let stepsFrom: StepsFrom = "trajectory";
  await writeSingleRunFile(ctx, "swe-agent", async (source, sink) => {
    let counted = 0;
    const header = await produceSweAgentTrajectory(
      source,
      fileName,
      { add: async (step) => void (counted++, await sink.add(step)) },
      stepsFrom,
    );
    if (stepsFrom === "trajectory" && counted === 0) stepsFrom = "history"; // the first pass ran on `trajectory` and found none
    return withOptions(header);
  });
}

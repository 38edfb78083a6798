import path from "node:path";
import type { ImportContext } from "../import-file";
import { produceSweAgentTrajectory } from "../formats/swe-agent-trajectory";
import { writeTrajectory } from "../write/write-trajectory";

/** A .traj file is one trajectory, keyed by its file name (and generator, when given). */
export async function importSweAgentDocument(ctx: ImportContext) {
  const externalId = ["swe-agent", ctx.options.generator, ctx.fileName.split(path.sep).join("/")].filter(Boolean).join(":");
  const outcome = await writeTrajectory(
    ctx.db,
    { externalId, sourceHash: await ctx.sha256(), produce: (sink) => produceSweAgentTrajectory(ctx.openStream(), ctx.fileName, sink) },
    ctx.run,
  );
  ctx.run.count(outcome);
}

import { createHash } from "node:crypto";
import path from "node:path";
import type { ImportContext } from "../import-file";
import type { RecordImporter, WriteResult } from "../import-records";
import { readDocumentParts } from "../read/json-document";
import { canonicalJson } from "../write/compare";
import { writeTrajectory, writeTrajectoryIn } from "../write/write-trajectory";
import { produceSweAgentTrajectory } from "../formats/swe-agent-trajectory";
import { OpenHandsStepper, openHandsHeader, openHandsOutputLine } from "../formats/openhands-trajectory";
import { inspectSample, InspectEvalSchema, type InspectEval } from "../formats/inspect-log";
import type { StepRecord, TrajectoryHeader } from "../formats/trajectory-record";
import { describeError } from "../import-records";
import { instanceFromFileName } from "./find-instance";

// Agent trajectories. A single-run file (.traj, an OpenHands event array) is keyed by
// its file name (plus the generator, when given); runs inside a file (Inspect samples,
// OpenHands output.jsonl lines) by their own ids.

const fileKey = (ctx: ImportContext, prefix: string) => [prefix, ctx.options.generator, ctx.fileName.split(path.sep).join("/")].filter(Boolean).join(":");
const hashOf = (value: unknown) => createHash("sha256").update(canonicalJson(value)).digest("hex");

export async function importSweAgentDocument(ctx: ImportContext) {
  const outcome = await writeTrajectory(
    ctx.db,
    {
      externalId: fileKey(ctx, "swe-agent"),
      sourceHash: await ctx.sha256(),
      produce: async (sink) => {
        const header = await produceSweAgentTrajectory(ctx.openStream(), ctx.fileName, sink);
        return { ...header, instanceId: ctx.options.instanceId ?? header.instanceId, generator: ctx.options.generator ?? header.model };
      },
    },
    ctx.run,
  );
  ctx.run.count(outcome);
}

export async function importOpenHandsEvents(ctx: ImportContext) {
  const instanceId = ctx.options.instanceId ?? (await instanceFromFileName(ctx.db, ctx.fileName));
  const outcome = await writeTrajectory(
    ctx.db,
    {
      externalId: fileKey(ctx, "openhands"),
      sourceHash: await ctx.sha256(),
      produce: async (sink) => {
        const stepper = new OpenHandsStepper();
        for await (const part of readDocumentParts(ctx.openStream())) {
          if (part.kind !== "element") continue;
          for (const step of stepper.add(part.value)) await sink.add(step);
        }
        for (const step of stepper.finish()) await sink.add(step);
        return { ...openHandsHeader(stepper, { instanceId }), generator: ctx.options.generator ?? stepper.model };
      },
    },
    ctx.run,
  );
  ctx.run.count(outcome);
}

/** Samples are streamed one at a time; each is its own trajectory and transaction. */
export async function importInspectLog(ctx: ImportContext) {
  let evalInfo: InspectEval | null = null;
  for await (const part of readDocumentParts(ctx.openStream(), new Set(["samples"]))) {
    if (part.kind === "member" && part.key === "eval") evalInfo = InspectEvalSchema.parse(part.value);
    if (part.kind !== "element" || part.key !== "samples") continue;
    await ctx.run.checkCancelled();
    const label = `sample ${part.index + 1}`;
    try {
      const sample = inspectSample(part.value, evalInfo, ctx.fileName);
      const outcome = await writeTrajectory(
        ctx.db,
        { externalId: sample.externalId, sourceHash: hashOf(part.value), produce: (sink) => addAll(sink, sample.steps, sample.header) },
        ctx.run,
      );
      ctx.run.count(outcome);
    } catch (error) {
      ctx.run.fail({ line: null, key: label, reason: describeError(error) });
    }
    await ctx.run.progress();
  }
}

async function addAll(sink: { add(step: StepRecord): Promise<void> }, steps: StepRecord[], header: TrajectoryHeader) {
  for (const step of steps) await sink.add(step);
  return header;
}

type OpenHandsLine = { externalId: string; sourceHash: string; header: TrajectoryHeader; steps: StepRecord[] };

/** OpenHands evaluation output.jsonl: one run per line. */
export const openHandsOutputImporter: RecordImporter<OpenHandsLine> = {
  format: "OPENHANDS_TRAJECTORY",
  parse(value) {
    const { header, steps } = openHandsOutputLine(value);
    return { externalId: `openhands:${header.model ?? "unknown"}:${header.instanceId}`, sourceHash: hashOf(value), header, steps };
  },
  key: (line) => line.externalId,
  async write(tx, lines, run) {
    const results: WriteResult[] = [];
    for (const line of lines) {
      results.push(await writeTrajectoryIn(tx, { externalId: line.externalId, sourceHash: line.sourceHash, produce: (sink) => addAll(sink, line.steps, line.header) }, run));
    }
    return results;
  },
  batchSize: 20,
};

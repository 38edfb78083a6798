import type { Db, Prisma, PrismaClient } from "../../db/client";
import { auditLog } from "../../audit/audit-log";
import type { StepRecord, TrajectoryHeader } from "../formats/trajectory-record";
import type { ImportRun, RecordOutcome } from "../import-run";
import { changedFields } from "./compare";

// A trajectory is written in one transaction — its row, then its steps in bulk batches
// while the source is still being read — so an interrupted or malformed file leaves no
// half-written trajectory. Idempotency: the source's SHA-256 is kept in metadata; the same
// bytes again are "unchanged" without even being parsed.

const STEP_BATCH = 200;
const STEP_BATCH_CHARS = 8 * 1024 * 1024;
export const TRAJECTORY_TRANSACTION = { maxWait: 60_000, timeout: 30 * 60_000 };

export type StepSink = { add(step: StepRecord): Promise<void> };

export type TrajectorySource = {
  externalId: string;
  sourceHash: string;
  /** streams the steps into the sink and returns the header (often only known at the end of the file) */
  produce(sink: StepSink): Promise<TrajectoryHeader>;
};

const HEADER_FIELDS = ["taskId", "candidatePatchId", "role", "format", "model", "exitStatus", "submission", "decision", "confidence", "diagnosis", "stepCount", "tokensIn", "tokensOut", "costUsd", "metadata"] as const;

/** Unchanged when a trajectory with this id was imported from the same bytes. */
export async function trajectoryIsUnchanged(db: Db, externalId: string, sourceHash: string) {
  const existing = await db.trajectory.findUnique({ where: { externalId }, select: { metadata: true } });
  return (existing?.metadata as { sourceSha256?: string } | null)?.sourceSha256 === sourceHash;
}

async function linkTask(tx: Db, header: TrajectoryHeader) {
  if (!header.instanceId) return { taskId: null, candidatePatchId: null };
  const task = await tx.task.findUnique({ where: { instanceId: header.instanceId }, select: { id: true } });
  if (!task) return { taskId: null, candidatePatchId: null };
  let candidatePatchId: string | null = null;
  if (header.candidatePatchId) {
    candidatePatchId = (await tx.candidatePatch.findFirst({ where: { id: header.candidatePatchId, taskId: task.id }, select: { id: true } }))?.id ?? null;
  } else if (header.generator) {
    candidatePatchId = (await tx.candidatePatch.findUnique({ where: { taskId_generator: { taskId: task.id, generator: header.generator } }, select: { id: true } }))?.id ?? null;
  }
  if (!candidatePatchId && header.submission?.trim()) {
    const patches = await tx.candidatePatch.findMany({ where: { taskId: task.id }, select: { id: true, patch: true } });
    candidatePatchId = patches.find((p) => p.patch.trim() === header.submission!.trim())?.id ?? null;
  }
  return { taskId: task.id, candidatePatchId };
}

export async function writeTrajectory(db: PrismaClient, source: TrajectorySource, run: ImportRun): Promise<RecordOutcome> {
  if (await trajectoryIsUnchanged(db, source.externalId, source.sourceHash)) return "unchanged";
  return db.$transaction((tx) => writeTrajectoryIn(tx, source, run), TRAJECTORY_TRANSACTION);
}

/** The same, inside a transaction the caller holds (a batch of small trajectories shares one). */
export async function writeTrajectoryIn(tx: Db, source: TrajectorySource, run: ImportRun): Promise<RecordOutcome> {
  if (await trajectoryIsUnchanged(tx, source.externalId, source.sourceHash)) return "unchanged";
  const existing = await tx.trajectory.findUnique({ where: { externalId: source.externalId } });
  const trajectoryId =
    existing?.id ??
    (await tx.trajectory.create({ data: { externalId: source.externalId, role: "SOLVER", format: "OTHER", importBatchId: run.batchId }, select: { id: true } })).id;
  if (existing) await tx.trajectoryStep.deleteMany({ where: { trajectoryId } });

  let index = 0;
  let buffer: Prisma.TrajectoryStepCreateManyInput[] = [];
  let bufferChars = 0;
  const flush = async () => {
    if (!buffer.length) return;
    await tx.trajectoryStep.createMany({ data: buffer });
    buffer = [];
    bufferChars = 0;
    await run.progress();
  };
  const header = await source.produce({
    async add(step) {
      buffer.push({ trajectoryId, index: index++, ...step, metadata: (step.metadata ?? undefined) as Prisma.InputJsonValue | undefined });
      bufferChars += (step.thought?.length ?? 0) + (step.action?.length ?? 0) + (step.observation?.length ?? 0);
      if (buffer.length >= STEP_BATCH || bufferChars >= STEP_BATCH_CHARS) await flush();
    },
  });
  await flush();

  const links = await linkTask(tx, header);
  const data = {
    ...links,
    role: header.role,
    format: header.format,
    model: header.model,
    exitStatus: header.exitStatus,
    submission: header.submission,
    decision: header.decision ?? null,
    confidence: header.confidence ?? null,
    diagnosis: (header.diagnosis ?? undefined) as Prisma.InputJsonValue | undefined,
    stepCount: index,
    tokensIn: header.tokensIn,
    tokensOut: header.tokensOut,
    costUsd: header.costUsd,
    metadata: { ...(header.metadata ?? {}), instanceId: header.instanceId, sourceSha256: source.sourceHash } as Prisma.InputJsonValue,
  };
  await tx.trajectory.update({ where: { id: trajectoryId }, data: { ...data, importBatchId: run.batchId } });
  if (!existing) return "created";
  const changed = changedFields(existing as unknown as Record<string, unknown>, data as Record<string, unknown>, HEADER_FIELDS);
  await auditLog(tx, {
    actorId: run.actorId,
    entityType: "trajectory",
    entityId: trajectoryId,
    action: "import.update",
    before: { ...Object.fromEntries(changed.map((f) => [f, existing[f]])), stepCount: existing.stepCount },
    after: { ...Object.fromEntries(changed.map((f) => [f, (data as Record<string, unknown>)[f]])), stepCount: index, importBatchId: run.batchId },
  });
  return "updated";
}

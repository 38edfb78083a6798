import type { Db, Prisma, PrismaClient } from "../../db/client";
import { auditLog } from "../../audit/audit-log";
import type { StepSink, TrajectoryHeader } from "../records/trajectory-record";
import type { ImportRun, RecordOutcome } from "../import-run";
import { changedFields } from "./compare";
import { classifyStep } from "../../trajectories/step-kind";
import { isReproducerStep, reproducerFactsOf } from "../../trajectories/reproducer";

// A trajectory is written in one transaction — its row, then its steps in bulk batches
// while the source is still being read — so an interrupted or malformed file leaves no
// half-written trajectory. Idempotency: the natural key comes from the content (instance
// and run, or the bytes' hash), never from where the file lies, and the source's SHA-256 is
// kept in metadata; the same bytes again are "unchanged" without writing a step.
// A solver's submission becomes the task's CandidatePatch (generator = its model or run),
// ready to validate; when the task is imported later, it is linked then (linkWaitingTrajectories).

const STEP_BATCH = 200;
const STEP_BATCH_CHARS = 8 * 1024 * 1024;
export const TRAJECTORY_TRANSACTION = { maxWait: 60_000, timeout: 30 * 60_000 };

export type { StepSink };

export type TrajectorySource = {
  externalId: string;
  /** keys older versions gave the same run (from its file name); a row under one is adopted, not duplicated */
  legacyExternalIds?: string[];
  sourceHash: string;
  /** streams the steps into the sink and returns the header (often only known at the end of the file) */
  produce(sink: StepSink): Promise<TrajectoryHeader>;
};

const HEADER_FIELDS = [
  "taskId",
  "candidatePatchId",
  "role",
  "format",
  "model",
  "exitStatus",
  "submission",
  "decision",
  "confidence",
  "diagnosis",
  "stepCount",
  "tokensIn",
  "tokensOut",
  "costUsd",
  "metadata",
] as const;

/** The natural key of one agent run: `<prefix>:<run or model>:<instance>`, else the content's hash. */
export function contentKey(
  prefix: string,
  header: Pick<TrajectoryHeader, "instanceId" | "generator" | "model">,
  sourceHash: string,
): string {
  const run = header.generator ?? header.model;
  if (header.instanceId && run) return `${prefix}:${run}:${header.instanceId}`;
  return `${prefix}:${header.instanceId ?? "unknown"}:sha256-${sourceHash.slice(0, 16)}`;
}

async function findExisting(db: Db, source: TrajectorySource) {
  for (const externalId of [source.externalId, ...(source.legacyExternalIds ?? [])]) {
    const row = await db.trajectory.findUnique({ where: { externalId } });
    if (row) return row;
  }
  return null;
}

const sameSource = (row: { metadata: unknown } | null, sourceHash: string) =>
  (row?.metadata as { sourceSha256?: string } | null)?.sourceSha256 === sourceHash;

type Waiting = { id: string; externalId: string; role: string; submission: string | null; metadata: unknown };

/** What a trajectory hangs off: its task, and the candidate patch it submitted or reviewed (created from its submission). */
async function linkTask(tx: Db, header: TrajectoryHeader, externalId: string) {
  if (!header.instanceId) return { taskId: null, candidatePatchId: null };
  const task = await tx.task.findUnique({ where: { instanceId: header.instanceId }, select: { id: true } });
  if (!task) return { taskId: null, candidatePatchId: null };
  return { taskId: task.id, candidatePatchId: await candidateFor(tx, task.id, header, externalId) };
}

async function candidateFor(
  tx: Db,
  taskId: string,
  header: Pick<TrajectoryHeader, "candidatePatchId" | "generator" | "model" | "submission" | "role">,
  externalId: string,
) {
  if (header.candidatePatchId)
    return (
      (await tx.candidatePatch.findFirst({ where: { id: header.candidatePatchId, taskId }, select: { id: true } }))
        ?.id ?? null
    );
  const generator = header.generator ?? header.model ?? null;
  if (generator) {
    const named = await tx.candidatePatch.findUnique({
      where: { taskId_generator: { taskId, generator } },
      select: { id: true },
    });
    if (named) return named.id;
  }
  const submission = header.submission?.trim();
  if (!submission) return null;
  const patches = await tx.candidatePatch.findMany({ where: { taskId }, select: { id: true, patch: true } });
  const same = patches.find((p) => p.patch.trim() === submission);
  if (same) return same.id;
  if (header.role !== "SOLVER") return null;
  const created = await tx.candidatePatch.create({
    data: {
      taskId,
      generator: generator ?? externalId,
      patch: asPatch(header.submission!),
      metadata: { fromTrajectory: externalId },
    },
    select: { id: true },
  });
  return created.id;
}

/** A submission as `git apply` takes it: no leading blank lines (SWE-agent's start with one), a final newline. */
function asPatch(submission: string) {
  const patch = submission.replace(/^(\r?\n)+/, "");
  return patch.endsWith("\n") ? patch : patch + "\n";
}

/** An unchanged file whose task has arrived since: link it now (and turn its submission into a candidate). */
async function linkIfWaiting(db: PrismaClient, row: Waiting & { taskId: string | null }): Promise<boolean> {
  if (row.taskId) return false;
  const instanceId = (row.metadata as { instanceId?: string } | null)?.instanceId;
  if (!instanceId) return false;
  return db.$transaction(async (tx) => {
    const task = await tx.task.findUnique({ where: { instanceId }, select: { id: true } });
    if (!task) return false;
    await attach(tx, row, task.id);
    return true;
  });
}

async function attach(tx: Db, row: Waiting, taskId: string) {
  const meta = (row.metadata ?? {}) as { generator?: string | null; model?: string | null };
  const candidatePatchId = await candidateFor(
    tx,
    taskId,
    {
      generator: meta.generator ?? null,
      model: meta.model ?? null,
      submission: row.submission,
      role: row.role as TrajectoryHeader["role"],
    },
    row.externalId,
  );
  await tx.trajectory.update({ where: { id: row.id }, data: { taskId, candidatePatchId } });
}

/** Trajectories imported before their task: link them to the tasks just written (by instance id). */
export async function linkWaitingTrajectories(tx: Db, tasks: { id: string; instanceId: string }[]) {
  if (!tasks.length) return;
  const byInstance = new Map(tasks.map((t) => [t.instanceId, t.id]));
  const waiting = await tx.$queryRaw<(Waiting & { instanceId: string })[]>`
    select id, external_id as "externalId", role::text as role, submission, metadata, metadata->>'instanceId' as "instanceId"
    from trajectories where task_id is null and metadata->>'instanceId' = any(${[...byInstance.keys()]}::text[])`;
  for (const row of waiting) await attach(tx, row, byInstance.get(row.instanceId)!);
}

export async function writeTrajectory(
  db: PrismaClient,
  source: TrajectorySource,
  run: ImportRun,
): Promise<RecordOutcome> {
  const existing = await findExisting(db, source);
  if (existing && sameSource(existing, source.sourceHash) && existing.externalId === source.externalId) {
    return (await linkIfWaiting(db, existing)) ? "updated" : "unchanged";
  }
  return db.$transaction((tx) => writeTrajectoryIn(tx, source, run), TRAJECTORY_TRANSACTION);
}

/** The same, inside a transaction the caller holds (a batch of small trajectories shares one). */
export async function writeTrajectoryIn(tx: Db, source: TrajectorySource, run: ImportRun): Promise<RecordOutcome> {
  const existing = await findExisting(tx, source);
  if (
    existing &&
    sameSource(existing, source.sourceHash) &&
    existing.externalId === source.externalId &&
    existing.taskId
  )
    return "unchanged";
  const trajectoryId =
    existing?.id ??
    (
      await tx.trajectory.create({
        data: { externalId: source.externalId, role: "SOLVER", format: "OTHER", importBatchId: run.batchId },
        select: { id: true },
      })
    ).id;
  if (existing) await tx.trajectoryStep.deleteMany({ where: { trajectoryId } });

  let index = 0;
  let ranCode = false;
  let buffer: Prisma.TrajectoryStepCreateManyInput[] = [];
  let bufferChars = 0;
  const flush = async () => {
    if (!buffer.length) return;
    await tx.trajectoryStep.createMany({ data: buffer });
    run.steps += buffer.length;
    buffer = [];
    bufferChars = 0;
    await run.progress();
  };
  const header = await source.produce({
    async add(step) {
      buffer.push({
        trajectoryId,
        index: index++,
        ...step,
        kind: classifyStep(step),
        metadata: (step.metadata ?? undefined) as Prisma.InputJsonValue | undefined,
      });
      ranCode ||= isReproducerStep(reproducerFactsOf(step));
      bufferChars += (step.thought?.length ?? 0) + (step.action?.length ?? 0) + (step.observation?.length ?? 0);
      if (buffer.length >= STEP_BATCH || bufferChars >= STEP_BATCH_CHARS) await flush();
    },
  });
  await flush();

  const links = await linkTask(tx, header, source.externalId);
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
    ranReproducer: index ? ranCode : null,
    tokensIn: header.tokensIn,
    tokensOut: header.tokensOut,
    costUsd: header.costUsd,
    metadata: {
      ...(header.metadata ?? {}),
      instanceId: header.instanceId,
      generator: header.generator ?? null,
      sourceSha256: source.sourceHash,
    } as Prisma.InputJsonValue,
  };
  await tx.trajectory.update({
    where: { id: trajectoryId },
    data: { ...data, externalId: source.externalId, importBatchId: run.batchId },
  });
  if (!existing) return "created";
  if (
    sameSource(existing, source.sourceHash) &&
    existing.externalId === source.externalId &&
    !changedFields(existing as unknown as Record<string, unknown>, data as Record<string, unknown>, HEADER_FIELDS)
      .length
  )
    return "unchanged";
  const changed = changedFields(
    existing as unknown as Record<string, unknown>,
    data as Record<string, unknown>,
    HEADER_FIELDS,
  );
  await auditLog(tx, {
    actorId: run.actorId,
    entityType: "trajectory",
    entityId: trajectoryId,
    action: "import.update",
    before: {
      ...Object.fromEntries(changed.map((f) => [f, existing[f]])),
      stepCount: existing.stepCount,
      externalId: existing.externalId,
    },
    after: {
      ...Object.fromEntries(changed.map((f) => [f, (data as Record<string, unknown>)[f]])),
      stepCount: index,
      externalId: source.externalId,
      importBatchId: run.batchId,
    },
  });
  return "updated";
}

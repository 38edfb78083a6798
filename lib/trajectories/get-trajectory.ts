import { z } from "zod";
import { Prisma } from "../db/client";
import type { Db } from "../db/client";
import { notFound } from "../errors/app-error";
import { STEP_KINDS, type StepKind } from "./step-kind";
import { editOfStep } from "./trajectory-edits";
import { relatedTrajectories } from "./compare";
import { withoutResolved, type BlindSet } from "../auth/blind";

/** One trajectory; whether its candidate patch resolved the task is left out while the reader is blind on the task (`blind`). */
export async function getTrajectory(db: Db, id: string, blind: BlindSet) {
  const trajectory = await db.trajectory.findUnique({
    where: { id },
    include: {
      task: { select: { id: true, instanceId: true } },
      candidatePatch: { select: { id: true, generator: true, resolved: true, patch: true } },
    },
  });
  if (!trajectory) throw notFound(`Trajectory ${id}`);
  const [kindCounts, related] = await Promise.all([countStepKinds(db, id), relatedTrajectories(db, trajectory)]);
  const candidatePatch =
    trajectory.candidatePatch && (await blind.hides(trajectory.taskId))
      ? withoutResolved(trajectory.candidatePatch)
      : trajectory.candidatePatch;
  return { ...trajectory, candidatePatch, kindCounts, related };
}
export type TrajectoryDetail = Awaited<ReturnType<typeof getTrajectory>>;

/** Steps per kind (an index-only scan of (trajectory_id, kind, index)); steps imported before kinds existed count as RUN. */
async function countStepKinds(db: Db, trajectoryId: string): Promise<Partial<Record<StepKind, number>>> {
  const groups = await db.trajectoryStep.groupBy({ by: ["kind"], where: { trajectoryId }, _count: { _all: true } });
  const counts: Partial<Record<StepKind, number>> = {};
  for (const group of groups) counts[group.kind ?? "RUN"] = (counts[group.kind ?? "RUN"] ?? 0) + group._count._all;
  return counts;
}

/** A list row carries only what the row shows: the step's first words, not its megabytes. */
export const STEP_SUMMARY_CHARS = 240;

export const StepWindowQuerySchema = z.object({
  from: z.coerce.number().int().min(0).default(0).describe("position of the first row in the (filtered) list"),
  at: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe("a step index: answer the window that holds it (overrides from)"),
  limit: z.coerce.number().int().min(1).max(200).default(100),
  kind: z.enum(STEP_KINDS).optional().describe("only steps of this kind"),
});
export type StepWindowQuery = z.infer<typeof StepWindowQuerySchema>;

export type StepRow = {
  id: string;
  index: number;
  kind: StepKind | null;
  summary: string;
  tokensIn: number | null;
  tokensOut: number | null;
  durationMs: number | null;
};

/** Where a step stands in the list filtered by a kind (its index when unfiltered). */
async function positionOf(db: Db, trajectoryId: string, index: number, kind: StepKind | undefined) {
  if (!kind) return index;
  return db.trajectoryStep.count({ where: { trajectoryId, kind, index: { lt: index } } });
}

/**
 * One window of the step list, at any position, in one query: the list is virtual, so
 * the page asks only for the rows on screen, however far it jumps.
 */
export async function listStepWindow(
  db: Db,
  trajectoryId: string,
  query: StepWindowQuery,
): Promise<{ offset: number; position: number | null; items: StepRow[] }> {
  // with ?at=, position is where that step stands (filtered: where the first step of the kind at or after it stands)
  const position = query.at === undefined ? null : await positionOf(db, trajectoryId, query.at, query.kind);
  const offset = position === null ? query.from : Math.floor(position / query.limit) * query.limit;
  // unfiltered, positions are indices (the importer numbers steps 0..n-1), so a range on the unique index; filtered, an offset on (trajectory_id, kind, index)
  const where = query.kind
    ? Prisma.sql`trajectory_id = ${trajectoryId} AND kind = ${query.kind}::"StepKind"`
    : Prisma.sql`trajectory_id = ${trajectoryId} AND index >= ${offset}`;
  const skip = query.kind ? offset : 0;
  const items = await db.$queryRaw<StepRow[]>`
    SELECT id, index, kind::text AS kind, left(coalesce(nullif(action, ''), thought, observation, ''), ${STEP_SUMMARY_CHARS}) AS summary,
           tokens_in AS "tokensIn", tokens_out AS "tokensOut", duration_ms AS "durationMs"
    FROM trajectory_steps WHERE ${where} ORDER BY index OFFSET ${skip} LIMIT ${query.limit}`;
  return { offset, position, items };
}

export async function getTrajectoryStep(db: Db, trajectoryId: string, index: number) {
  const step = await db.trajectoryStep.findUnique({
    where: { trajectoryId_index: { trajectoryId, index } },
    select: {
      id: true,
      index: true,
      kind: true,
      thought: true,
      action: true,
      observation: true,
      tokensIn: true,
      tokensOut: true,
      durationMs: true,
      metadata: true,
    },
  });
  if (!step) throw notFound(`Step ${index + 1} of trajectory ${trajectoryId}`);
  return { ...step, edit: await editOfStep(db, trajectoryId, step) };
}
export type FullStep = Awaited<ReturnType<typeof getTrajectoryStep>>;

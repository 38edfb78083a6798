import { z } from "zod";
import type { Db } from "../db/client";
import { notFound } from "../errors/app-error";

export async function getTrajectory(db: Db, id: string) {
  const trajectory = await db.trajectory.findUnique({
    where: { id },
    include: {
      task: { select: { id: true, instanceId: true } },
      candidatePatch: { select: { id: true, generator: true, resolved: true, patch: true } },
    },
  });
  if (!trajectory) throw notFound(`Trajectory ${id}`);
  return trajectory;
}
export type TrajectoryDetail = Awaited<ReturnType<typeof getTrajectory>>;

/** Observations can be megabytes; the list carries a preview and the full text is fetched per step. */
export const STEP_PREVIEW_CHARS = 2_000;

export const ListStepsQuerySchema = z.object({
  from: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});
export type ListStepsQuery = z.infer<typeof ListStepsQuerySchema>;

const preview = (text: string | null) =>
  text && text.length > STEP_PREVIEW_CHARS ? { text: text.slice(0, STEP_PREVIEW_CHARS), truncated: true, length: text.length } : { text, truncated: false, length: text?.length ?? 0 };

export async function listTrajectorySteps(db: Db, trajectoryId: string, query: ListStepsQuery) {
  const steps = await db.trajectoryStep.findMany({
    where: { trajectoryId, index: { gte: query.from } },
    orderBy: { index: "asc" },
    take: query.limit,
  });
  return steps.map((step) => ({
    id: step.id,
    index: step.index,
    thought: preview(step.thought),
    action: preview(step.action),
    observation: preview(step.observation),
    tokensIn: step.tokensIn,
    tokensOut: step.tokensOut,
    durationMs: step.durationMs,
  }));
}
export type TrajectoryStepPreview = Awaited<ReturnType<typeof listTrajectorySteps>>[number];

export async function getTrajectoryStep(db: Db, trajectoryId: string, index: number) {
  const step = await db.trajectoryStep.findUnique({ where: { trajectoryId_index: { trajectoryId, index } } });
  if (!step) throw notFound(`Step ${index} of trajectory ${trajectoryId}`);
  return step;
}

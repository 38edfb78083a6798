import { sleepUntilAborted as sleep } from "@/lib/async/sleep-until-aborted";
import type { Db, JobStatus } from "../../db/client";
import { notFound } from "../../errors/app-error";
import type { ReplayedStep } from "./replay-output";

const REPLAY_FIELDS = {
  id: true,
  trajectoryId: true,
  stepIndex: true,
  status: true,
  actionsTotal: true,
  actionsDone: true,
  results: true,
  errorMessage: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} as const;

export type StepReplayView = {
  id: string;
  trajectoryId: string;
  stepIndex: number;
  status: JobStatus;
  actionsTotal: number;
  actionsDone: number;
  results: ReplayedStep[] | null;
  errorMessage: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
};

const asView = (row: Omit<StepReplayView, "results"> & { results: unknown }): StepReplayView => ({
  ...row,
  results: (row.results as ReplayedStep[] | null) ?? null,
});

/** One replay with its results. */
export async function getStepReplay(db: Db, id: string): Promise<StepReplayView> {
  const row = await db.stepReplay.findUnique({ where: { id }, select: REPLAY_FIELDS });
  if (!row) throw notFound(`Replay ${id}`);
  return asView(row);
}

/** The latest replay of each step of a trajectory that has one (newest first), for the step list's marks. */
export async function listStepReplays(db: Db, trajectoryId: string): Promise<StepReplayView[]> {
  if (!(await db.trajectory.findUnique({ where: { id: trajectoryId }, select: { id: true } })))
    throw notFound(`Trajectory ${trajectoryId}`);
  const rows = await db.stepReplay.findMany({
    where: { trajectoryId },
    orderBy: { createdAt: "desc" },
    take: 200,
    select: REPLAY_FIELDS,
  });
  const latest = new Map<number, (typeof rows)[number]>();
  for (const row of rows) if (!latest.has(row.stepIndex)) latest.set(row.stepIndex, row);
  return [...latest.values()].map(asView);
}

export type ReplayEvent =
  { type: "progress"; status: JobStatus; done: number; total: number } | { type: "end"; status: JobStatus };

const FINISHED: JobStatus[] = ["SUCCEEDED", "FAILED", "CANCELLED"];

/** A replay's progress ("step k of n") as it changes, then `end`; polls the row like the live logs do. */
export async function* stepReplayEvents(
  db: Db,
  id: string,
  options: { signal?: AbortSignal; pollMs?: number } = {},
): AsyncGenerator<ReplayEvent> {
  let last = "";
  if (!(await db.stepReplay.findUnique({ where: { id }, select: { id: true } }))) throw notFound(`Replay ${id}`);
  while (!options.signal?.aborted) {
    const row = await db.stepReplay.findUnique({
      where: { id },
      select: { status: true, actionsDone: true, actionsTotal: true },
    });
    if (!row) return;
    const key = `${row.status}/${row.actionsDone}`;
    if (key !== last) {
      last = key;
      yield { type: "progress", status: row.status, done: row.actionsDone, total: row.actionsTotal };
    }
    if (FINISHED.includes(row.status)) {
      yield { type: "end", status: row.status };
      return;
    }
    await sleep(options.pollMs ?? 400, options.signal);
  }
}

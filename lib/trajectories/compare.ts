import { z } from "zod";
import type { Db } from "../db/client";
import { notFound } from "../errors/app-error";
import type { StepKind } from "./step-kind";
import { withoutResolved, type BlindSet } from "../auth/blind";

// Two trajectories side by side, their steps aligned by what they did rather than by number:
// a global alignment (Needleman–Wunsch) of the two action sequences, where two steps match
// when they did the same act (kind and what it acted on), half-match when only the kind
// agrees, and either side may skip. The alignment is quadratic, so it covers the first
// MAX_ALIGNED steps of each side.

export const MAX_ALIGNED = 2_000;

export const CompareQuerySchema = z.object({ a: z.string().min(1).max(200), b: z.string().min(1).max(200) });

type Row = { index: number; kind: StepKind | null; summary: string };
export type AlignedPair = { a: Row | null; b: Row | null; same: boolean };

/** What a step acted on: its command word and its first path-like or quoted argument. */
export function actSignature(row: { kind: StepKind | null; summary: string }): string {
  const text = row.summary.trim();
  const word = /^[\w.-]+/.exec(text)?.[0] ?? "";
  const rest = text.slice(word.length);
  const words = rest.split(/\s+/).map((w) => w.replace(/^["']|["']$/g, ""));
  const target = words.find((w) => w.includes(".") && /^[\w./-]+$/.test(w)) ?? /"[^"]+"|'[^']+'/.exec(rest)?.[0] ?? "";
  return `${row.kind ?? "RUN"}|${word}|${target}`;
}

const MATCH = 2;
const KIND_ONLY = 1;
const MISMATCH = -1;
const GAP = -1;

/** The aligned rows: pairs, and steps one side took alone. */
export function alignSteps(a: Row[], b: Row[]): AlignedPair[] {
  const sa = a.map(actSignature);
  const sb = b.map(actSignature);
  const width = b.length + 1;
  const score = new Int32Array((a.length + 1) * width);
  for (let i = 0; i <= a.length; i++) score[i * width] = i * GAP;
  for (let j = 0; j <= b.length; j++) score[j] = j * GAP;
  const pairScore = (i: number, j: number) =>
    sa[i] === sb[j] ? MATCH : a[i].kind === b[j].kind ? KIND_ONLY : MISMATCH;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      score[i * width + j] = Math.max(
        score[(i - 1) * width + j - 1] + pairScore(i - 1, j - 1),
        score[(i - 1) * width + j] + GAP,
        score[i * width + j - 1] + GAP,
      );
    }
  }
  const pairs: AlignedPair[] = [];
  let i = a.length;
  let j = b.length;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && score[i * width + j] === score[(i - 1) * width + j - 1] + pairScore(i - 1, j - 1)) {
      pairs.push({ a: a[i - 1], b: b[j - 1], same: sa[i - 1] === sb[j - 1] });
      i--;
      j--;
    } else if (i > 0 && score[i * width + j] === score[(i - 1) * width + j] + GAP) {
      pairs.push({ a: a[--i], b: null, same: false });
    } else {
      pairs.push({ a: null, b: b[--j], same: false });
    }
  }
  return pairs.reverse();
}

async function side(db: Db, id: string, blind: BlindSet) {
  const trajectory = await db.trajectory.findUnique({
    where: { id },
    select: {
      id: true,
      externalId: true,
      role: true,
      model: true,
      decision: true,
      confidence: true,
      diagnosis: true,
      stepCount: true,
      exitStatus: true,
      taskId: true,
      task: { select: { instanceId: true } },
      candidatePatch: { select: { id: true, generator: true, resolved: true } },
    },
  });
  if (!trajectory) throw notFound(`Trajectory ${id}`);
  if (trajectory.candidatePatch && (await blind.hides(trajectory.taskId)))
    trajectory.candidatePatch = withoutResolved(trajectory.candidatePatch);
  const steps = await db.$queryRaw<Row[]>`
    SELECT index, kind::text AS kind, left(coalesce(nullif(action, ''), thought, observation, ''), 160) AS summary
    FROM trajectory_steps WHERE trajectory_id = ${id} ORDER BY index LIMIT ${MAX_ALIGNED}`;
  return { trajectory, steps };
}

/** Two trajectories aligned; a side on a task `blind` hides comes without whether its candidate resolved it. */
export async function compareTrajectories(db: Db, aId: string, bId: string, blind: BlindSet) {
  const [a, b] = await Promise.all([side(db, aId, blind), side(db, bId, blind)]);
  const rows = alignSteps(a.steps, b.steps);
  const differs = {
    decision: a.trajectory.decision !== b.trajectory.decision,
    diagnosis: JSON.stringify(a.trajectory.diagnosis ?? null) !== JSON.stringify(b.trajectory.diagnosis ?? null),
  };
  // any two can be compared; the page says so when they are not on one task
  const sameTask = a.trajectory.taskId !== null && a.trajectory.taskId === b.trajectory.taskId;
  return {
    a: a.trajectory,
    b: b.trajectory,
    sameTask,
    rows,
    differs,
    truncated: a.trajectory.stepCount > MAX_ALIGNED || b.trajectory.stepCount > MAX_ALIGNED,
    matched: rows.filter((r) => r.same).length,
  };
}
export type TrajectoryComparison = Awaited<ReturnType<typeof compareTrajectories>>;

/** Other trajectories on the same task (its reviewers and solvers), to compare with or to follow. */
export async function relatedTrajectories(
  db: Db,
  trajectory: { id: string; taskId: string | null; candidatePatchId: string | null },
) {
  if (!trajectory.taskId) return [];
  return db.trajectory.findMany({
    where: { taskId: trajectory.taskId, id: { not: trajectory.id } },
    orderBy: [{ role: "asc" }, { createdAt: "asc" }],
    take: 50,
    select: { id: true, externalId: true, role: true, model: true, decision: true, candidatePatchId: true },
  });
}

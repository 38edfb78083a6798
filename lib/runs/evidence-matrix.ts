import type { Db, Prisma, RunKind, TestGroup, TestOutcome } from "../db/client";
import { notFound } from "../errors/app-error";
import { requireVisible, type BlindSet } from "../auth/blind";
import { explainFlip, type FlipExplanation, type RunInputs } from "./explain-flip";

/** The newest runs a matrix shows: enough for every rerun a curator compares, bounded for a task validated for months. */
export const EVIDENCE_RUN_LIMIT = 60;

const EVIDENCE_RUN_FIELDS = {
  id: true,
  groupId: true,
  kind: true,
  attempt: true,
  attempts: true,
  status: true,
  candidatePatchId: true,
  engine: true,
  imageId: true,
  parserVersion: true,
  createdAt: true,
  revision: { select: { id: true, number: true } },
  candidatePatch: { select: { generator: true } },
  testResults: {
    where: { group: { in: ["FAIL_TO_PASS", "PASS_TO_PASS"] } },
    select: { testId: true, group: true, expected: true, actual: true, logLine: true },
  },
} satisfies Prisma.ValidationRunSelect;

type StoredRun = Prisma.ValidationRunGetPayload<{ select: typeof EVIDENCE_RUN_FIELDS }>;

/** A column of the matrix: one run and what its result depended on (null: not recorded on that run). */
export type EvidenceRun = {
  id: string;
  groupId: string | null;
  kind: RunKind;
  candidate: string | null;
  attempt: number;
  /** a repeat of its group (attempt > 0) or a run tried again after a failure */
  rerun: boolean;
  status: string;
  createdAt: Date;
  revision: { id: string; number: number };
  engine: string | null;
  imageId: string | null;
  parserVersion: string | null;
};

export type EvidenceCell = { runId: string; expected: TestOutcome; actual: TestOutcome; logLine: number | null };
export type FlipSide = { runId: string; actual: TestOutcome; logLine: number | null };
export type Flip = {
  testId: string;
  kind: RunKind;
  candidate: string | null;
  before: FlipSide;
  after: FlipSide;
  explanation: FlipExplanation;
};
export type EvidenceRow = { testId: string; group: TestGroup; cells: EvidenceCell[] };
export type EvidenceMatrix = {
  task: { id: string; instanceId: string };
  runs: EvidenceRun[];
  tests: EvidenceRow[];
  flips: Flip[];
  runLimit: number;
};

const inputsOf = (run: EvidenceRun): RunInputs => ({
  recipe: run.revision.id,
  image: run.imageId,
  host: run.engine,
  parser: run.parserVersion,
});
/** Runs are compared within one control: the same kind and, for candidates, the same candidate patch. */
const controlOf = (run: Pick<StoredRun, "kind" | "candidatePatchId">) => `${run.kind}|${run.candidatePatchId ?? ""}`;

function asColumn(run: StoredRun): EvidenceRun {
  return {
    id: run.id,
    groupId: run.groupId,
    kind: run.kind,
    candidate: run.candidatePatch?.generator ?? null,
    attempt: run.attempt,
    rerun: run.attempt > 0 || run.attempts > 1,
    status: run.status,
    createdAt: run.createdAt,
    revision: run.revision,
    engine: run.engine,
    imageId: run.imageId,
    parserVersion: run.parserVersion,
  };
}

function rowsOf(task: { failToPass: string[]; passToPass: string[] }, runs: StoredRun[]): EvidenceRow[] {
  const rows = new Map<string, EvidenceRow>();
  task.failToPass.forEach((testId) => rows.set(testId, { testId, group: "FAIL_TO_PASS", cells: [] }));
  task.passToPass.forEach(
    (testId) => rows.has(testId) || rows.set(testId, { testId, group: "PASS_TO_PASS", cells: [] }),
  );
  for (const run of runs) {
    for (const result of run.testResults) {
      const row = rows.get(result.testId) ?? { testId: result.testId, group: result.group, cells: [] };
      rows.set(result.testId, row);
      row.cells.push({ runId: run.id, expected: result.expected, actual: result.actual, logLine: result.logLine });
    }
  }
  return [...rows.values()];
}

/** Consecutive runs of one control that disagree on a test, each with why. */
function flipsOf(rows: EvidenceRow[], runs: StoredRun[]): Flip[] {
  const byId = new Map(runs.map((run) => [run.id, run]));
  const flips: Flip[] = [];
  for (const row of rows) {
    const lastByControl = new Map<string, EvidenceCell>();
    for (const cell of row.cells) {
      const run = byId.get(cell.runId)!;
      const previous = lastByControl.get(controlOf(run));
      lastByControl.set(controlOf(run), cell);
      if (!previous || previous.actual === cell.actual) continue;
      const [before, after] = [asColumn(byId.get(previous.runId)!), asColumn(run)];
      flips.push({
        testId: row.testId,
        kind: run.kind,
        candidate: after.candidate,
        before: { runId: before.id, actual: previous.actual, logLine: previous.logLine },
        after: { runId: after.id, actual: cell.actual, logLine: cell.logLine },
        explanation: explainFlip(inputsOf(before), inputsOf(after)),
      });
    }
  }
  return flips;
}

/**
 * Each FAIL_TO_PASS / PASS_TO_PASS test of a task against every run that touched it (the
 * newest EVIDENCE_RUN_LIMIT runs, oldest first), with what each run depended on, and every
 * flip between two runs of the same control explained. Absent to a reader blind on the task.
 */
export async function taskEvidenceMatrix(db: Db, idOrInstanceId: string, blind: BlindSet): Promise<EvidenceMatrix> {
  // a task is named by its id or its instance id, as GET /tasks/{id} takes it
  const task = await db.task.findFirst({
    where: { OR: [{ id: idOrInstanceId }, { instanceId: idOrInstanceId }] },
    select: { id: true, instanceId: true, failToPass: true, passToPass: true },
  });
  if (!task) throw notFound("The task");
  const taskId = task.id;
  // a blind annotator may not compare runs: their outcomes would tell the verdict
  await requireVisible(blind, taskId, "The task's evidence");
  const newest = await db.validationRun.findMany({
    where: { taskId },
    select: EVIDENCE_RUN_FIELDS,
    orderBy: [{ createdAt: "desc" }, { attempt: "desc" }, { id: "desc" }],
    take: EVIDENCE_RUN_LIMIT,
  });
  const runs = newest.filter((run) => run.testResults.length > 0).reverse();
  const tests = rowsOf(task, runs);
  return {
    task: { id: task.id, instanceId: task.instanceId },
    runs: runs.map(asColumn),
    tests,
    flips: flipsOf(tests, runs),
    runLimit: EVIDENCE_RUN_LIMIT,
  };
}

/** The runs a caller asks about: these runs, or every run queued since a time. */
export type FlipsSince = { runIds: readonly string[] } | { date: Date };

/**
 * The flips whose later run is one of `since.runIds` or was queued at or after `since.date`:
 * what a rerun, a new recipe or a new image changed in a task's tests, and why.
 */
export async function flippedTests(db: Db, taskId: string, since: FlipsSince, blind: BlindSet): Promise<Flip[]> {
  const matrix = await taskEvidenceMatrix(db, taskId, blind);
  const created = new Map(matrix.runs.map((run) => [run.id, run.createdAt]));
  const isSince =
    "runIds" in since
      ? (runId: string) => since.runIds.includes(runId)
      : (runId: string) => created.get(runId)! >= since.date;
  return matrix.flips.filter((flip) => isSince(flip.after.runId));
}

import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { PrismaClient } from "../../lib/db/client";
import { classifyStep } from "../../lib/trajectories/step-kind";

// The failure clusters' demo (prisma/seed/demo/failed-runs/README.md): failed agent runs on the
// demo calculator, with the candidate run's failing tests where a run judged the candidate, so
// /trajectories/search shows its clusters tab with more than one group.

export const FAILED_RUNS_FILE = path.join(import.meta.dirname, "demo", "failed-runs", "runs.json");

const StepSchema = z.object({ thought: z.string(), action: z.string(), observation: z.string() });
const RunSchema = z.object({
  instanceId: z.string(),
  generator: z.string(),
  model: z.string(),
  exitStatus: z.string(),
  patch: z.string().optional(),
  failingTests: z.array(z.string()).optional(),
  steps: z.array(StepSchema),
});
type DemoRun = z.infer<typeof RunSchema>;

/** The candidate and its judged run (as an imported harness report records it), for a run that submitted a patch. */
async function writeCandidate(
  db: PrismaClient,
  run: DemoRun,
  task: { id: string; failToPass: string[]; passToPass: string[]; revisionId: string },
) {
  if (!run.patch) return null;
  const candidate = await db.candidatePatch.create({
    data: {
      taskId: task.id,
      generator: run.generator,
      patch: run.patch,
      resolved: false,
      metadata: { importedWith: "demo" },
    },
  });
  const failing = new Set(run.failingTests ?? []);
  const tests = [
    ...task.failToPass.map((id) => ({ id, group: "FAIL_TO_PASS" as const })),
    ...task.passToPass.map((id) => ({ id, group: "PASS_TO_PASS" as const })),
  ];
  await db.validationRun.create({
    data: {
      taskId: task.id,
      revisionId: task.revisionId,
      candidatePatchId: candidate.id,
      kind: "CANDIDATE",
      status: "SUCCEEDED",
      resolved: false,
      exitCode: 1,
      finishedAt: new Date(),
      testResults: {
        create: tests.map((t) => ({
          testId: t.id,
          group: t.group,
          expected: "PASSED" as const,
          actual: failing.has(t.id) ? ("FAILED" as const) : ("PASSED" as const),
        })),
      },
    },
  });
  return candidate.id;
}

/** Adds the failed runs once (their trajectories' external ids are their key); returns how many it added. */
export async function seedFailuresDemo(db: PrismaClient, log: (line: string) => void): Promise<number> {
  const runs = z.array(RunSchema).parse(JSON.parse(await readFile(FAILED_RUNS_FILE, "utf8")));
  let added = 0;
  for (const run of runs) {
    const externalId = `demo-failed-run:${run.generator}:${run.instanceId}`;
    if (await db.trajectory.findUnique({ where: { externalId } })) continue;
    const task = await db.task.findUnique({
      where: { instanceId: run.instanceId },
      select: { id: true, failToPass: true, passToPass: true, environment: { select: { currentRevisionId: true } } },
    });
    if (!task?.environment.currentRevisionId) continue;
    const candidatePatchId = await writeCandidate(db, run, { ...task, revisionId: task.environment.currentRevisionId });
    await db.trajectory.create({
      data: {
        externalId,
        taskId: task.id,
        candidatePatchId,
        role: "SOLVER",
        format: "OTHER",
        model: run.model,
        exitStatus: run.exitStatus,
        submission: run.patch ?? null,
        stepCount: run.steps.length,
        ranReproducer: true,
        steps: { create: run.steps.map((step, index) => ({ index, ...step, kind: classifyStep(step) })) },
      },
    });
    added += 1;
  }
  log(`[seed] added ${added} failed agent runs for the failure clusters`);
  return added;
}

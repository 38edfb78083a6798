import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { PrismaClient } from "../../lib/db/client";
import { addGeneratedTest } from "../../lib/analytics/generated-test-actions";

// The analytics pages' demo (prisma/seed/demo-analytics/README.md): generated tests and
// test-driven steps on the demo calculator, and reviewer verdicts with steps and causes.
// Their validations are queued here, so a running worker turns them into real figures.

export const ANALYTICS_DEMO_DIR = path.join(import.meta.dirname, "demo-analytics");
const CALC_ENVIRONMENT = "demo/calc@base";
const REVIEWED_TASK = "demo__calc-2";

const GeneratedTestSchema = z.object({
  instanceId: z.string(),
  generatedFor: z.string(),
  generator: z.string(),
  file: z.string(),
  failToPass: z.array(z.string()),
});
const StepSchema = z.object({ instanceId: z.string(), failToPass: z.array(z.string()), problemStatement: z.string() });

const read = (...parts: string[]) => readFile(path.join(ANALYTICS_DEMO_DIR, ...parts), "utf8");

async function addGeneratedTests(db: PrismaClient): Promise<string[]> {
  const tests = z.array(GeneratedTestSchema).parse(JSON.parse(await read("generated-tests", "tests.json")));
  const ids: string[] = [];
  for (const test of tests) {
    const input = {
      instanceId: test.generatedFor,
      generator: test.generator,
      testPatch: await read("generated-tests", test.file),
      failToPass: test.failToPass,
    };
    ids.push((await addGeneratedTest(db, input, test.instanceId)).id);
  }
  return ids;
}

async function addSteps(db: PrismaClient, environmentId: string): Promise<string[]> {
  const ids: string[] = [];
  for (const folder of ["demo-flow__calc-median", "demo-flow__calc-mode"]) {
    const step = StepSchema.parse(JSON.parse(await read("steps", folder, "step.json")));
    const fields = {
      environmentId,
      kind: "TDD_STEP" as const,
      source: "SWE_FLOW" as const,
      problemStatement: step.problemStatement,
      fixPatch: await read("steps", folder, "fix.patch"),
      testPatch: await read("steps", folder, "test.patch"),
      failToPass: step.failToPass,
      passToPass: [],
    };
    ids.push(
      (
        await db.task.upsert({
          where: { instanceId: step.instanceId },
          create: { instanceId: step.instanceId, ...fields },
          update: fields,
        })
      ).id,
    );
  }
  return ids;
}

/** Adds the analytics demo and queues its validations; returns how many runs were queued. */
export async function seedAnalyticsDemo(db: PrismaClient, log: (line: string) => void): Promise<number> {
  const environment = await db.environment.findUniqueOrThrow({ where: { key: CALC_ENVIRONMENT } });
  const taskIds = [...(await addGeneratedTests(db)), ...(await addSteps(db, environment.id))];
  const { importFile } = await import("../../lib/imports/import-file");
  for (const file of ["reviewer-verdicts.jsonl", "revised-predictions.jsonl"]) {
    const batch = await importFile(db, path.join(ANALYTICS_DEMO_DIR, file), { fileName: `demo-${file}` });
    log(`[seed] imported the analytics demo's ${file}: ${batch.created} created, ${batch.failed} failed`);
  }

  const { requestValidation } = await import("../../lib/runs/request-validation");
  let queued = 0;
  for (const taskId of taskIds) queued += (await requestValidation(db, { taskId, actorId: null })).runs.length;
  const reviewed = await db.task.findUniqueOrThrow({
    where: { instanceId: REVIEWED_TASK },
    include: { candidatePatches: { select: { id: true } } },
  });
  for (const candidate of reviewed.candidatePatches)
    queued += (await requestValidation(db, { taskId: reviewed.id, candidatePatchId: candidate.id, actorId: null })).runs
      .length;
  log(
    `[seed] queued ${queued} validation runs for the analytics demo (generated tests, test-driven steps, reviewed candidates)`,
  );
  return queued;
}

import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { PrismaClient } from "../../lib/db/client";

// The analytics pages' demo (prisma/seed/demo-analytics/README.md): generated tests and
// test-driven steps on the demo calculator, and reviewer verdicts with steps and causes.
// Their validations are queued here, so a running worker turns them into real figures.

export const ANALYTICS_DEMO_DIR = path.join(import.meta.dirname, "demo-analytics");
const CALC_ENVIRONMENT = "demo/calc@base";
const REVIEWED_TASK = "demo__calc-2";

const GeneratedTestSchema = z.object({ instanceId: z.string(), generatedFor: z.string(), generator: z.string(), file: z.string(), failToPass: z.array(z.string()) });
const StepSchema = z.object({ instanceId: z.string(), failToPass: z.array(z.string()), problemStatement: z.string() });

const read = (...parts: string[]) => readFile(path.join(ANALYTICS_DEMO_DIR, ...parts), "utf8");

async function addGeneratedTests(db: PrismaClient, environmentId: string): Promise<string[]> {
  const tests = z.array(GeneratedTestSchema).parse(JSON.parse(await read("generated-tests", "tests.json")));
  const ids: string[] = [];
  for (const test of tests) {
    const original = await db.task.findUniqueOrThrow({ where: { instanceId: test.generatedFor } });
    const fields = {
      environmentId,
      kind: "TEST_GENERATION" as const,
      source: "OTHER" as const,
      problemStatement: `A unit test ${test.generator} generated for ${test.generatedFor}.\n\n${original.problemStatement}`,
      fixPatch: original.fixPatch,
      testPatch: await read("generated-tests", test.file),
      failToPass: test.failToPass,
      passToPass: [],
      metadata: { generator: test.generator, generatedFor: test.generatedFor },
    };
    ids.push((await db.task.upsert({ where: { instanceId: test.instanceId }, create: { instanceId: test.instanceId, ...fields }, update: fields })).id);
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
    ids.push((await db.task.upsert({ where: { instanceId: step.instanceId }, create: { instanceId: step.instanceId, ...fields }, update: fields })).id);
  }
  return ids;
}

/** Adds the analytics demo and queues its validations; returns how many runs were queued. */
export async function seedAnalyticsDemo(db: PrismaClient, log: (line: string) => void): Promise<number> {
  const environment = await db.environment.findUniqueOrThrow({ where: { key: CALC_ENVIRONMENT } });
  const taskIds = [...(await addGeneratedTests(db, environment.id)), ...(await addSteps(db, environment.id))];
  const { importFile } = await import("../../lib/imports/import-file");
  const batch = await importFile(db, path.join(ANALYTICS_DEMO_DIR, "reviewer-verdicts.jsonl"), { fileName: "demo-reviewer-verdicts.jsonl" });
  log(`[seed] imported the analytics demo's reviewer verdicts: ${batch.created} created, ${batch.failed} failed`);

  const { requestValidation } = await import("../../lib/runs/request-validation");
  let queued = 0;
  for (const taskId of taskIds) queued += (await requestValidation(db, { taskId, actorId: null })).runs.length;
  const reviewed = await db.task.findUniqueOrThrow({ where: { instanceId: REVIEWED_TASK }, include: { candidatePatches: { select: { id: true } } } });
  for (const candidate of reviewed.candidatePatches) queued += (await requestValidation(db, { taskId: reviewed.id, candidatePatchId: candidate.id, actorId: null })).runs.length;
  log(`[seed] queued ${queued} validation runs for the analytics demo (generated tests, test-driven steps, reviewed candidates)`);
  return queued;
}

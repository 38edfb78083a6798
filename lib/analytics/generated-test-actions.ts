import { createHash } from "node:crypto";
import { z } from "zod";
import type { PrismaClient } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";
import { updateTaskAtVersion } from "../tasks/task-version";
import { loadGeneratedTests } from "./generated-tests";
import { ACTIVE_STATUSES, requestValidation } from "../runs/request-validation";

// A generator's candidate test for a task becomes a TEST_GENERATION task: the original task's
// environment and gold fix, the generated test patch, and its test ids as FAIL_TO_PASS, so
// the ordinary validation (negative and positive control) measures attack and accuracy.

export const GeneratedTestInputSchema = z.object({
  /** the task the test was generated for */
  instanceId: z.string().trim().min(1).max(300),
  generator: z.string().trim().min(1, "name the test generator").max(300),
  testPatch: z.string().min(1, "the test patch is empty").max(1_000_000),
  failToPass: z.array(z.string().trim().min(1).max(1_000)).min(1, "name at least one test the patch adds").max(500),
});
export type GeneratedTestInput = z.infer<typeof GeneratedTestInputSchema>;

/** Adds (or, for the same generator and patch, finds) the generated test; idempotent. */
export async function addGeneratedTest(db: PrismaClient, input: GeneratedTestInput, instanceId?: string) {
  const original = await db.task.findUnique({ where: { instanceId: input.instanceId } });
  if (!original)
    throw new AppError(
      "UNPROCESSABLE",
      `No task has instance id ${input.instanceId}; import the task before tests generated for it`,
    );
  const id =
    instanceId ??
    `${original.instanceId}__gen__${createHash("sha256").update(`${input.generator}\n${input.testPatch}`).digest("hex").slice(0, 10)}`;
  const fields = {
    environmentId: original.environmentId,
    kind: "TEST_GENERATION" as const,
    // the test comes from a generator, not from the original task's dataset
    source: "OTHER" as const,
    difficulty: original.difficulty,
    problemStatement: `A unit test ${input.generator} generated for ${original.instanceId}.\n\n${original.problemStatement}`,
    fixPatch: original.fixPatch,
    testPatch: input.testPatch,
    failToPass: input.failToPass,
    passToPass: [],
    metadata: { generator: input.generator, generatedFor: original.instanceId },
  };
  return db.task.upsert({ where: { instanceId: id }, create: { instanceId: id, ...fields }, update: fields });
}

export const PromoteSchema = z.object({
  /** the version of the original task the curator saw: a task changed since is refused */
  version: z.number().int().min(1),
});

/**
 * A valid generated test (it fails without the fix and passes with it) joins its original
 * task: its test patch is appended to the task's and its tests to FAIL_TO_PASS — a new
 * version of the task, audited, refused when the task changed since the curator looked.
 */
export async function promoteGeneratedTest(
  db: PrismaClient,
  actor: { id: string },
  generatedTaskId: string,
  version: number,
) {
  const test = (await loadGeneratedTests(db)).find((t) => t.taskId === generatedTaskId);
  if (!test) throw notFound("The generated test");
  if (!(test.attacks && test.accurate)) {
    throw new AppError(
      "UNPROCESSABLE",
      "Only a valid generated test can be promoted: it must fail without the fix and pass with the gold fix in its latest runs",
    );
  }
  const generated = await db.task.findUniqueOrThrow({
    where: { id: generatedTaskId },
    select: { testPatch: true, failToPass: true },
  });
  return db.$transaction(async (tx) => {
    const original = await tx.task.findUnique({
      where: { instanceId: test.generatedFor ?? "" },
      select: { id: true, testPatch: true, failToPass: true },
    });
    if (!original)
      throw new AppError("UNPROCESSABLE", `The task ${test.generatedFor} this test was generated for is gone`);
    const failToPass = [...new Set([...original.failToPass, ...generated.failToPass])];
    const testPatch = original.testPatch.includes(generated.testPatch)
      ? original.testPatch
      : `${original.testPatch.trimEnd()}\n${generated.testPatch}`;
    const next = await updateTaskAtVersion(tx, original.id, version, { testPatch, failToPass });
    await auditLog(tx, {
      actorId: actor.id,
      entityType: "task",
      entityId: original.id,
      action: "task.generated_test_promoted",
      before: { failToPass: original.failToPass, testPatch: original.testPatch, version },
      after: { failToPass, testPatch, version: next, generatedTest: test.instanceId, generator: test.generator },
    });
    return { taskId: original.id, version: next, failToPass };
  });
}

/** Adds the generated test and queues its controls (unless a validation of it is already queued or running). */
export async function addAndValidateGeneratedTest(db: PrismaClient, input: GeneratedTestInput, actorId: string | null) {
  const task = await addGeneratedTest(db, input);
  const active = await db.validationRun.count({ where: { taskId: task.id, status: { in: [...ACTIVE_STATUSES] } } });
  const validation = active ? null : await requestValidation(db, { taskId: task.id, actorId });
  return { taskId: task.id, instanceId: task.instanceId, groupId: validation?.groupId ?? null };
}

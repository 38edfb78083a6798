import { z } from "zod";
import type { Db, Prisma } from "../../../db/client";
import { auditLog } from "../../../audit/audit-log";
import { RecordRejected, type RecordImporter, type WriteResult } from "../../import-records";
import type { ImportRun } from "../../import-run";
import { findTasks, missingTask } from "../../write/find-tasks";
import { sameValue } from "../../write/compare";
import { extrasOf } from "../../records/task-record";
import { generatorOfFile, type ChooseGenerator } from "../../user-generator";

// SWE-bench predictions — the harness's input: one candidate patch per instance and
// generator. Natural key (task, model_name_or_path). A changed patch forgets its old
// ground truth: `resolved` goes back to unknown until a validation run decides again.

export const SweBenchPredictionSchema = z
  .object({
    instance_id: z.string().trim().min(1, "instance_id is empty"),
    model_name_or_path: z.string().trim().min(1, "model_name_or_path is empty"),
    /** null or "" is an empty patch, which the harness counts as unresolved */
    model_patch: z.string().nullable(),
  })
  .loose();
export type SweBenchPrediction = z.infer<typeof SweBenchPredictionSchema>;

export type PredictionRecord = {
  instanceId: string;
  generator: string;
  patch: string;
  metadata: Record<string, unknown> | null;
};

const CONSUMED = new Set(["instance_id", "model_name_or_path", "model_patch"]);

/** An empty submission is no candidate: the harness counts it unresolved, and there is nothing to validate. */
export const EMPTY_PATCH_REASON =
  "model_patch is empty, so there is no candidate to import (the harness counts it as unresolved); nothing was stored for it";

export function parsePrediction(value: unknown, chooseGenerator: ChooseGenerator = generatorOfFile): PredictionRecord {
  const row = SweBenchPredictionSchema.parse(value);
  if (!row.model_patch?.trim()) throw new RecordRejected(EMPTY_PATCH_REASON);
  const generator = chooseGenerator(row.model_name_or_path, row.instance_id) ?? row.model_name_or_path;
  return { instanceId: row.instance_id, generator, patch: row.model_patch ?? "", metadata: extrasOf(row, CONSUMED) };
}

export async function writePredictions(tx: Db, records: PredictionRecord[], run: ImportRun): Promise<WriteResult[]> {
  const tasks = await findTasks(
    tx,
    records.map((r) => r.instanceId),
  );
  const existing = await tx.candidatePatch.findMany({
    where: {
      OR: records
        .filter((r) => tasks.has(r.instanceId))
        .map((r) => ({ taskId: tasks.get(r.instanceId)!.id, generator: r.generator })),
    },
  });
  const byKey = new Map(existing.map((p) => [`${p.taskId}\u0000${p.generator}`, p]));
  const toCreate: Prisma.CandidatePatchCreateManyInput[] = [];
  const results: WriteResult[] = [];
  for (const record of records) {
    const task = tasks.get(record.instanceId);
    if (!task) {
      results.push(missingTask(record.instanceId));
      continue;
    }
    const current = byKey.get(`${task.id}\u0000${record.generator}`);
    if (!current) {
      toCreate.push({
        taskId: task.id,
        generator: record.generator,
        patch: record.patch,
        metadata: (record.metadata ?? undefined) as Prisma.InputJsonValue | undefined,
      });
      results.push("created");
    } else if (current.patch === record.patch && sameValue(current.metadata, record.metadata)) {
      results.push("unchanged");
    } else {
      const patchChanged = current.patch !== record.patch;
      await tx.candidatePatch.update({
        where: { id: current.id },
        data: {
          patch: record.patch,
          metadata: (record.metadata ?? undefined) as Prisma.InputJsonValue | undefined,
          ...(patchChanged ? { resolved: null } : {}),
        },
      });
      await auditLog(tx, {
        actorId: run.actorId,
        entityType: "candidate_patch",
        entityId: current.id,
        action: "import.update",
        before: {
          patch: patchChanged ? current.patch : undefined,
          metadata: current.metadata,
          resolved: current.resolved,
        },
        after: {
          patch: patchChanged ? record.patch : undefined,
          metadata: record.metadata,
          resolved: patchChanged ? null : current.resolved,
          importBatchId: run.batchId,
        },
      });
      results.push("updated");
    }
  }
  if (toCreate.length) await tx.candidatePatch.createMany({ data: toCreate });
  return results;
}

/** Predictions; `chooseGenerator` lets the user's generator win over model_name_or_path. */
export const sweBenchPredictionsImporter = (
  chooseGenerator: ChooseGenerator = generatorOfFile,
): RecordImporter<PredictionRecord> => ({
  format: "SWE_BENCH_PREDICTIONS",
  parse: (value) => parsePrediction(value, chooseGenerator),
  key: (r) => `${r.instanceId} (${r.generator})`,
  write: writePredictions,
});

import { createHash } from "node:crypto";
import { z } from "zod";
import type { Db } from "../../../db/client";
import type { RecordImporter, WriteResult } from "../../import-records";
import type { ImportRun } from "../../import-run";
import { canonicalJson } from "../../write/compare";
import { findTasks, missingTask } from "../../write/find-tasks";
import { writeTrajectoryIn } from "../../write/write-trajectory";
import { OpenHandsStepper } from "../openhands-trajectory/map";
import { sweAgentStep } from "../swe-agent-trajectory/map";
import { chatSteps } from "../chat-steps";
import { finiteInt, finiteNumber, makeStep, type StepRecord } from "../../records/trajectory-record";

// A reviewer agent's verdict on one candidate patch. No public standard exists
// (SWE-Review's review_report.json is unpublished), so this is ours — documented in
// lib/imports/README.md. One verdict per line (JSONL) or a JSON array. Ground truth never
// comes from here: whether the patch resolves the task is decided by a validation run.

export const REVIEWER_VERDICT_SCHEMA_ID = "swe-curator/reviewer-verdict@1";

export const DefectSchema = z.union([
  z.string().min(1),
  z
    .object({
      description: z.string().min(1),
      file: z.string().nullish(),
      line: z.number().int().nullish(),
      severity: z.enum(["low", "medium", "high", "critical"]).nullish(),
    })
    .loose(),
]);

export const DiagnosisSchema = z
  .object({
    root_cause: z.string().nullish(),
    defects: z.array(DefectSchema).default([]),
    suggested_fix: z.string().nullish(),
    text: z.string().nullish(),
  })
  .loose();
export type Diagnosis = z.infer<typeof DiagnosisSchema>;

const DecisionSchema = z
  .union([z.string(), z.object({ recommendation: z.string() }).loose()])
  .transform((value, ctx) => {
    // SWE-Review writes the decision either as a string or as { recommendation }
    const text = (typeof value === "string" ? value : value.recommendation)
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, "_");
    if (text === "approve" || text === "approved" || text === "accept") return "APPROVE" as const;
    if (text === "request_changes" || text === "reject" || text === "changes_requested")
      return "REQUEST_CHANGES" as const;
    ctx.addIssue({ code: "custom", message: `decision must be "approve" or "request_changes", not "${text}"` });
    return z.NEVER;
  });

/** Steps of a reviewer's run in the generic form, when it is not a SWE-agent or OpenHands file. */
const GenericStepsSchema = z.object({
  steps: z.array(
    z
      .object({
        thought: z.string().nullish(),
        action: z.string().nullish(),
        observation: z.string().nullish(),
        tokens_in: z.number().nullish(),
        tokens_out: z.number().nullish(),
        duration_ms: z.number().nullish(),
      })
      .loose(),
  ),
});

export const ReviewerVerdictSchema = z
  .object({
    schema: z.literal(REVIEWER_VERDICT_SCHEMA_ID).optional(),
    /** natural key; defaults to instance + candidate generator + reviewer model */
    review_id: z.string().trim().min(1).optional(),
    instance_id: z.string().trim().min(1, "instance_id is empty"),
    candidate: z
      .object({
        generator: z.string().trim().min(1).optional(),
        candidate_patch_id: z.string().trim().min(1).optional(),
        /** the reviewed patch; creates the CandidatePatch when it is not imported yet */
        patch: z.string().optional(),
      })
      .refine((c) => c.generator || c.candidate_patch_id, {
        message: "candidate needs a generator (model_name_or_path) or a candidate_patch_id",
      }),
    reviewer_model: z.string().trim().min(1, "reviewer_model is empty"),
    decision: DecisionSchema,
    confidence: z.number().min(0, "confidence is between 0 and 1").max(1, "confidence is between 0 and 1").nullish(),
    diagnosis: z.union([z.string().transform((text): Diagnosis => ({ defects: [], text })), DiagnosisSchema]).nullish(),
    /** the reviewer's own run: a SWE-agent .traj object, an OpenHands event array, or { steps: [...] } */
    trajectory: z.unknown().optional(),
    usage: z
      .object({ tokens_in: z.number().nullish(), tokens_out: z.number().nullish(), cost_usd: z.number().nullish() })
      .nullish(),
    /** why a wrong decision went wrong (subtle_logic_bug, insufficient_reproducer_coverage, …): /analytics/reviewers counts these */
    cause: z.string().trim().min(1).max(100).nullish(),
    created_at: z.string().nullish(),
  })
  .loose();
export type ReviewerVerdict = z.infer<typeof ReviewerVerdictSchema>;

export type VerdictRecord = {
  verdict: ReviewerVerdict;
  externalId: string;
  sourceHash: string;
  steps: StepRecord[];
  trajectoryFormat: "SWE_AGENT" | "OPENHANDS" | "OTHER";
};

/** Accepts SWE-bench-style shorthands: top-level model_name_or_path / model_patch for the candidate. */
function withShorthands(value: unknown): unknown {
  if (!value || typeof value !== "object") return value;
  const row = value as Record<string, unknown>;
  if (row.candidate !== undefined || (row.model_name_or_path === undefined && row.candidate_patch_id === undefined))
    return value;
  const { model_name_or_path, model_patch, candidate_patch_id, ...rest } = row;
  return { ...rest, candidate: { generator: model_name_or_path, patch: model_patch ?? undefined, candidate_patch_id } };
}

export function reviewerSteps(trajectory: unknown): { steps: StepRecord[]; format: VerdictRecord["trajectoryFormat"] } {
  if (trajectory === undefined || trajectory === null) return { steps: [], format: "OTHER" };
  if (Array.isArray(trajectory)) {
    const stepper = new OpenHandsStepper();
    const steps = trajectory.flatMap((event) => stepper.add(event));
    return { steps: [...steps, ...stepper.finish()], format: "OPENHANDS" };
  }
  const object = trajectory as Record<string, unknown>;
  if (Array.isArray(object.trajectory) && object.trajectory.length)
    return { steps: object.trajectory.map(sweAgentStep), format: "SWE_AGENT" };
  if (Array.isArray(object.history)) return { steps: chatSteps(object.history, "history"), format: "SWE_AGENT" };
  const generic = GenericStepsSchema.parse(trajectory);
  return {
    steps: generic.steps.map((s) =>
      makeStep({
        thought: s.thought,
        action: s.action,
        observation: s.observation,
        tokensIn: s.tokens_in ?? null,
        tokensOut: s.tokens_out ?? null,
        durationMs: s.duration_ms ?? null,
      }),
    ),
    format: "OTHER",
  };
}

export function parseReviewerVerdict(value: unknown): VerdictRecord {
  const verdict = ReviewerVerdictSchema.parse(withShorthands(value));
  const { steps, format } = reviewerSteps(verdict.trajectory);
  const candidateKey = verdict.candidate.generator ?? verdict.candidate.candidate_patch_id;
  return {
    verdict,
    externalId: `review:${verdict.review_id ?? `${verdict.instance_id}:${candidateKey}:${verdict.reviewer_model}`}`,
    sourceHash: createHash("sha256").update(canonicalJson(value)).digest("hex"),
    steps,
    trajectoryFormat: format,
  };
}

async function ensureCandidate(
  tx: Db,
  taskId: string,
  verdict: ReviewerVerdict,
): Promise<{ generator: string | null; candidatePatchId: string | null } | { error: string }> {
  const { generator, candidate_patch_id: id, patch } = verdict.candidate;
  if (id) {
    const found = await tx.candidatePatch.findFirst({ where: { id, taskId }, select: { id: true, generator: true } });
    return found
      ? { generator: found.generator, candidatePatchId: found.id }
      : { error: `candidate patch ${id} does not belong to task ${verdict.instance_id}` };
  }
  const existing = await tx.candidatePatch.findUnique({
    where: { taskId_generator: { taskId, generator: generator! } },
    select: { id: true },
  });
  if (existing) return { generator: generator!, candidatePatchId: existing.id };
  if (patch === undefined)
    return {
      error: `no candidate patch from "${generator}" for ${verdict.instance_id}; import the predictions first or include candidate.patch`,
    };
  const created = await tx.candidatePatch.create({
    data: { taskId, generator: generator!, patch, metadata: { importedWith: "reviewer-verdict" } },
    select: { id: true },
  });
  return { generator: generator!, candidatePatchId: created.id };
}

export async function writeReviewerVerdicts(tx: Db, records: VerdictRecord[], run: ImportRun): Promise<WriteResult[]> {
  const tasks = await findTasks(
    tx,
    records.map((r) => r.verdict.instance_id),
  );
  const results: WriteResult[] = [];
  for (const record of records) {
    const { verdict } = record;
    const task = tasks.get(verdict.instance_id);
    if (!task) {
      results.push(missingTask(verdict.instance_id));
      continue;
    }
    const candidate = await ensureCandidate(tx, task.id, verdict);
    if ("error" in candidate) {
      results.push(candidate);
      continue;
    }
    const diagnosis = verdict.diagnosis
      ? {
          rootCause: verdict.diagnosis.root_cause ?? null,
          defects: verdict.diagnosis.defects,
          suggestedFix: verdict.diagnosis.suggested_fix ?? null,
          text: verdict.diagnosis.text ?? null,
        }
      : null;
    const outcome = await writeTrajectoryIn(
      tx,
      {
        externalId: record.externalId,
        sourceHash: record.sourceHash,
        async produce(sink) {
          for (const step of record.steps) await sink.add(step);
          return {
            instanceId: verdict.instance_id,
            role: "REVIEWER",
            format: record.trajectoryFormat,
            model: verdict.reviewer_model,
            exitStatus: null,
            submission: null,
            decision: verdict.decision,
            confidence: verdict.confidence ?? null,
            diagnosis,
            generator: candidate.generator,
            candidatePatchId: candidate.candidatePatchId,
            tokensIn: finiteInt(verdict.usage?.tokens_in),
            tokensOut: finiteInt(verdict.usage?.tokens_out),
            costUsd: finiteNumber(verdict.usage?.cost_usd),
            metadata: {
              reviewId: verdict.review_id ?? null,
              createdAt: verdict.created_at ?? null,
              cause: verdict.cause ?? null,
            },
          };
        },
      },
      run,
    );
    results.push(outcome);
  }
  return results;
}

export const reviewerVerdictsImporter: RecordImporter<VerdictRecord> = {
  format: "REVIEWER_VERDICTS",
  parse: parseReviewerVerdict,
  key: (r) => r.externalId,
  write: writeReviewerVerdicts,
  batchSize: 50,
};

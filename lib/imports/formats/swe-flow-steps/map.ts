import { z } from "zod";
import {
  environmentKey,
  extrasOf,
  taskRowKeyFields,
  TestIdListSchema,
  type TaskRecord,
} from "../../records/task-record";

// SWE-Flow TDD steps (sweflow/utils/merge.py's dataset.jsonl): one development step of a
// project — its requirement document, the ground-truth patch from base_commit to
// reference_commit, and the step's tests, with lowercase fail_to_pass / pass_to_pass.
// Each step starts from its own commit, so each gets its own environment.

export const SweFlowStepSchema = z
  .object({
    ...taskRowKeyFields(),
    reference_commit: z.string().nullish(),
    /** the requirement document; SWE-Flow calls it the specification */
    problem_statement: z.string().optional(),
    requirement: z.string().optional(),
    fail_to_pass: TestIdListSchema.optional(),
    pass_to_pass: TestIdListSchema.optional(),
    FAIL_TO_PASS: TestIdListSchema.optional(),
    PASS_TO_PASS: TestIdListSchema.optional(),
  })
  .loose()
  .refine((row) => row.problem_statement !== undefined || row.requirement !== undefined, {
    message: "a step needs its requirement (problem_statement)",
  });

const CONSUMED = new Set([
  "instance_id",
  "repo",
  "base_commit",
  "problem_statement",
  "requirement",
  "patch",
  "test_patch",
  "fail_to_pass",
  "pass_to_pass",
  "FAIL_TO_PASS",
  "PASS_TO_PASS",
]);

export function parseSweFlowStep(value: unknown): TaskRecord {
  const row = SweFlowStepSchema.parse(value);
  const { owner, name, url } = row.repo;
  const extras = extrasOf(row, CONSUMED) ?? {};
  return {
    instanceId: row.instance_id,
    repository: { owner, name, url },
    environment: {
      key: environmentKey(owner, name, row.base_commit),
      baseCommit: row.base_commit,
      setupCommit: null,
      version: null,
      source: "SWE_FLOW",
      recipe: null,
      // SWE-Flow publishes one image per project
      metadata: { image: `hambaobao/sweflow:${owner}__--__${name}` },
    },
    task: {
      kind: "TDD_STEP",
      source: "SWE_FLOW",
      difficulty: null,
      problemStatement: row.problem_statement ?? row.requirement ?? "",
      hintsText: null,
      fixPatch: row.patch ?? "",
      testPatch: row.test_patch ?? "",
      failToPass: row.fail_to_pass ?? row.FAIL_TO_PASS ?? [],
      passToPass: row.pass_to_pass ?? row.PASS_TO_PASS ?? [],
      issueCreatedAt: null,
      metadata: Object.keys(extras).length ? extras : null,
    },
  };
}

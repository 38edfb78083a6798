import type { Difficulty } from "../db/client";
import type { Task } from "../db/client";

// One task as a SWE-bench instance row — the fields the harness reads, the dataset's own
// extra fields given back from Task.metadata — plus our provenance under "swe_curator",
// which the harness ignores and our importer reads back.

export const EXPORT_SCHEMA_ID = "swe-curator/export@1";
export const PROVENANCE_KEY = "swe_curator";

/** The fields the SWE-bench harness reads, in the Hugging Face dataset's column order: every export row has them. */
export const HARNESS_FIELDS = [
  "instance_id",
  "repo",
  "base_commit",
  "patch",
  "test_patch",
  "problem_statement",
  "hints_text",
  "created_at",
  "version",
  "environment_setup_commit",
  "FAIL_TO_PASS",
  "PASS_TO_PASS",
] as const;

/** The SWE-bench instance fields we model: the harness's and SWE-bench Verified's difficulty (only when known). */
export const SWE_BENCH_FIELDS = [...HARNESS_FIELDS, "difficulty"] as const;

const DIFFICULTY_LABEL: Record<Difficulty, string> = {
  EASY: "<15 min fix",
  MEDIUM: "15 min - 1 hour",
  HARD: "1-4 hours",
  VERY_HARD: ">4 hours",
};

/** A task as export-tasks.ts reads it: its own columns plus environment, decisions and runs. */
export type ExportableTask = Pick<
  Task,
  | "id"
  | "instanceId"
  | "kind"
  | "source"
  | "difficulty"
  | "problemStatement"
  | "hintsText"
  | "fixPatch"
  | "testPatch"
  | "failToPass"
  | "passToPass"
  | "issueCreatedAt"
  | "metadata"
  | "curationStatus"
  | "automatedVerdict"
  | "verdictOverride"
  | "failureClass"
  | "labels"
> & {
  environment: {
    key: string;
    baseCommit: string;
    setupCommit: string | null;
    version: string | null;
    metadata: unknown;
    repository: { owner: string; name: string };
    currentRevision: { id: string; number: number; contextHash: string | null; reason: string | null } | null;
  };
  decisions: {
    verdict: string;
    reasons: string[];
    comment: string | null;
    overridesAutomated: boolean;
    createdAt: Date;
    curator: { email: string };
  }[];
  validationRuns: {
    id: string;
    kind: string;
    status: string;
    resolved: boolean | null;
    exitCode: number | null;
    failureClass: string | null;
    flags: string[];
    finishedAt: Date | null;
    revision: { number: number };
    build: { imageTag: string | null } | null;
    candidatePatch: { generator: string } | null;
  }[];
  imageTag: string | null;
};

export type ExportOptions = { testLists: "list" | "json-string"; provenance: boolean; exportedAt: Date };

export function toSweBenchRow(task: ExportableTask, options: ExportOptions): Record<string, unknown> {
  const extras =
    task.metadata && typeof task.metadata === "object" && !Array.isArray(task.metadata)
      ? (task.metadata as Record<string, unknown>)
      : {};
  const lists = (ids: string[]) => (options.testLists === "json-string" ? JSON.stringify(ids) : ids);
  const env = task.environment;
  const row: Record<string, unknown> = {
    ...extras,
    repo: `${env.repository.owner}/${env.repository.name}`,
    instance_id: task.instanceId,
    base_commit: env.baseCommit,
    patch: task.fixPatch,
    test_patch: task.testPatch,
    problem_statement: task.problemStatement,
    hints_text: task.hintsText ?? "",
    created_at: task.issueCreatedAt?.toISOString() ?? (typeof extras.created_at === "string" ? extras.created_at : ""),
    version: env.version ?? "",
    FAIL_TO_PASS: lists(task.failToPass),
    PASS_TO_PASS: lists(task.passToPass),
    environment_setup_commit: env.setupCommit ?? env.baseCommit,
  };
  if (task.difficulty) row.difficulty = DIFFICULTY_LABEL[task.difficulty];
  if (!options.provenance) return row;
  const placeholder = !!(env.metadata as { placeholderRecipe?: boolean } | null)?.placeholderRecipe;
  row[PROVENANCE_KEY] = {
    schema: EXPORT_SCHEMA_ID,
    task_id: task.id,
    kind: task.kind,
    source: task.source,
    curation_status: task.curationStatus,
    automated_verdict: task.verdictOverride ?? task.automatedVerdict,
    automated_verdict_overridden: task.verdictOverride !== null,
    failure_class: task.failureClass,
    labels: task.labels,
    decisions: task.decisions.map((d) => ({
      verdict: d.verdict,
      reasons: d.reasons,
      comment: d.comment,
      overrides_automated: d.overridesAutomated,
      curator: d.curator.email,
      at: d.createdAt.toISOString(),
    })),
    validation_runs: task.validationRuns.map((r) => ({
      id: r.id,
      kind: r.kind,
      status: r.status,
      resolved: r.resolved,
      exit_code: r.exitCode,
      failure_class: r.failureClass,
      flags: r.flags,
      revision: r.revision.number,
      image_tag: r.build?.imageTag ?? null,
      generator: r.candidatePatch?.generator ?? null,
      finished_at: r.finishedAt?.toISOString() ?? null,
    })),
    environment: {
      key: env.key,
      revision: env.currentRevision?.number ?? null,
      revision_id: env.currentRevision?.id ?? null,
      context_hash: env.currentRevision?.contextHash ?? null,
      placeholder_recipe: placeholder,
      image_tag: task.imageTag,
    },
    exported_at: options.exportedAt.toISOString(),
  };
  return row;
}

import { z } from "zod";
import { TaskKind, TaskSource } from "../../../db/enums";
import { PROVENANCE_KEY, SWE_BENCH_FIELDS } from "../../../exports/swe-bench-row";
import {
  environmentKey,
  extrasOf,
  parseDifficulty,
  parseTimestamp,
  taskRowKeyFields,
  TestIdListSchema,
  VersionSchema,
  type TaskRecord,
} from "../../records/task-record";

// SWE-bench task instances and the datasets that reuse the format (SWE-Gym, SWE-smith,
// SWE-rebench), and Multi-SWE-bench's rows, mapped onto it. Fields we do not model (image_name, install_config, query, task_id, …)
// stay in Task.metadata, verbatim.

export const SweBenchInstanceSchema = z
  .object({
    ...taskRowKeyFields(),
    problem_statement: z.string().nullish(),
    hints_text: z.string().nullish(),
    created_at: z.union([z.string(), z.number()]).nullish(),
    version: VersionSchema,
    environment_setup_commit: z.string().nullish(),
    FAIL_TO_PASS: TestIdListSchema.optional(),
    PASS_TO_PASS: TestIdListSchema.optional(),
    difficulty: z.string().nullish(),
  })
  .loose();
export type SweBenchInstance = z.infer<typeof SweBenchInstanceSchema>;

const CONSUMED = new Set<string>([PROVENANCE_KEY, ...SWE_BENCH_FIELDS]);

const mentions = (row: Record<string, unknown>, fields: string[], pattern: RegExp) =>
  fields.some((field) => typeof row[field] === "string" && pattern.test(row[field] as string));

const isMultiSweBenchRow = (row: Record<string, unknown>) =>
  typeof row.org === "string" &&
  typeof (row.base as { sha?: unknown } | null)?.sha === "string" &&
  !("base_commit" in row);

/** Which dataset a row comes from, from its own fields first and the file name second. */
export function detectInstanceSource(row: Record<string, unknown>, fileName = ""): TaskSource {
  const images = ["image_name", "docker_image", "image", "repo"];
  if (isMultiSweBenchRow(row)) return "OTHER";
  if (
    mentions(row, images, /swesmith|swe-smith/i) ||
    /\.[0-9a-f]{8}\.(pr_\d+|func_|lm_|combine_|pb_)/.test(String(row.instance_id ?? ""))
  )
    return "SWE_SMITH";
  if ("install_config" in row || mentions(row, images, /swerebench|swe-rebench/i)) return "SWE_REBENCH";
  if (mentions(row, images, /swe-?gym|sweb\.gym|xingyaoww\//i)) return "SWE_GYM";
  if (/swe-?smith/i.test(fileName)) return "SWE_SMITH";
  if (/swe-?rebench/i.test(fileName)) return "SWE_REBENCH";
  if (/swe-?gym/i.test(fileName)) return "SWE_GYM";
  return "SWE_BENCH";
}

/**
 * The issue text of a row that has no problem_statement but carries the issue under other
 * names: `title` and `body` (GitHub-scraped rows), or Multi-SWE-bench's `resolved_issues`.
 */
export function issueTextOf(row: Record<string, unknown>): string {
  if (typeof row.problem_statement === "string" && row.problem_statement.trim()) return row.problem_statement;
  const issues =
    Array.isArray(row.resolved_issues) && row.resolved_issues.length
      ? (row.resolved_issues as Record<string, unknown>[])
      : [row];
  return issues
    .map((issue) =>
      [issue?.title, issue?.body]
        .filter((part): part is string => typeof part === "string" && part.trim() !== "")
        .join("\n\n"),
    )
    .filter(Boolean)
    .join("\n\n");
}

/** Our own export's provenance says what the task was; the harness ignores it, we read it back. */
const ProvenanceSchema = z.object({ kind: z.enum(TaskKind).optional(), source: z.enum(TaskSource).optional() }).loose();

export function toTaskRecord(row: SweBenchInstance, source: TaskSource): TaskRecord {
  const { owner, name, url } = row.repo;
  const extras = extrasOf(row, CONSUMED);
  const provenance = ProvenanceSchema.safeParse(row[PROVENANCE_KEY]);
  const kind = (provenance.success && provenance.data.kind) || "ISSUE_FIX";
  if (provenance.success && provenance.data.source) source = provenance.data.source;
  return {
    instanceId: row.instance_id,
    repository: { owner, name, url },
    environment: {
      key: environmentKey(owner, name, row.base_commit),
      baseCommit: row.base_commit,
      setupCommit: row.environment_setup_commit || null,
      version: row.version,
      source,
      recipe: null,
      metadata: null,
    },
    task: {
      kind,
      source,
      difficulty: parseDifficulty(row.difficulty),
      problemStatement: issueTextOf(row),
      hintsText: row.hints_text ?? null,
      fixPatch: row.patch ?? "",
      testPatch: row.test_patch ?? "",
      failToPass: row.FAIL_TO_PASS ?? [],
      passToPass: row.PASS_TO_PASS ?? [],
      issueCreatedAt: parseTimestamp(row.created_at),
      // an unparseable difficulty or timestamp is kept rather than lost
      metadata: mergeMetadata(extras, {
        ...(row.difficulty && !parseDifficulty(row.difficulty) ? { difficulty: row.difficulty } : {}),
        ...(row.created_at != null && !parseTimestamp(row.created_at) ? { created_at: row.created_at } : {}),
      }),
    },
  };
}

export function mergeMetadata(
  a: Record<string, unknown> | null,
  b: Record<string, unknown>,
): Record<string, unknown> | null {
  const merged = { ...(a ?? {}), ...b };
  return Object.keys(merged).length ? merged : null;
}

/** The names of the tests in Multi-SWE-bench's objects keyed by test name. */
const testNamesOf = (row: Record<string, unknown>, fields: string[]) =>
  fields.flatMap((field) =>
    row[field] && typeof row[field] === "object" && !Array.isArray(row[field]) ? Object.keys(row[field] as object) : [],
  );

/**
 * Multi-SWE-bench rows name the repository as `org` + `repo`, the starting commit as
 * `base.sha` and the fix as `fix_patch`, and key their tests by name: `f2p_tests`,
 * `s2p_tests` and `n2p_tests` must pass after the fix (its harness's resolved rule),
 * `p2p_tests` before and after. They become the SWE-bench fields; the rest stays in metadata.
 */
export function fromMultiSweBench(value: unknown): unknown {
  const row = value as Record<string, unknown> | null;
  if (!row || typeof row !== "object" || Array.isArray(row) || !isMultiSweBenchRow(row)) return value;
  const { fix_patch, ...rest } = row;
  return {
    ...rest,
    repo: typeof row.repo === "string" && !row.repo.includes("/") ? `${row.org}/${row.repo}` : row.repo,
    base_commit: (row.base as { sha: string }).sha,
    patch: rest.patch ?? fix_patch,
    FAIL_TO_PASS: rest.FAIL_TO_PASS ?? testNamesOf(row, ["f2p_tests", "s2p_tests", "n2p_tests"]),
    PASS_TO_PASS: rest.PASS_TO_PASS ?? testNamesOf(row, ["p2p_tests"]),
  };
}

export function parseSweBenchInstance(value: unknown, fileName = "", source?: TaskSource): TaskRecord {
  const row = SweBenchInstanceSchema.parse(fromMultiSweBench(value));
  return toTaskRecord(row, source ?? detectInstanceSource(value as Record<string, unknown>, fileName));
}

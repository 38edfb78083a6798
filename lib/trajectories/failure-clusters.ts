import { z } from "zod";
import type { Db } from "../db/client";
import type { BlindSet } from "../auth/blind";
import { sql } from "../db/sql";
import { toCsv } from "../csv/csv";
import { failureSignature, signatureKey, type SignatureStep } from "./failure-signature";
import { trajectoryFilters } from "./search-all-steps";
import { FAILED_OUTCOMES, OUTCOME_SQL, type Outcome } from "./trajectory-outcome";

// Failed trajectories grouped by their signature (failure-signature.ts): one statement reads each
// failed trajectory's last steps (newest first, through the (trajectory, index) key, so a
// 100,000-step run costs what a short one does) and its candidate run's failing tests; the
// grouping is code, deterministic, offline.

export const ClusterQuerySchema = z.object({
  model: z.string().trim().min(1).max(200).optional().describe("only trajectories of this model"),
  task: z.string().trim().min(1).max(200).optional().describe("only trajectories of this task (instance id)"),
  verdict: z
    .enum(FAILED_OUTCOMES as [Outcome, ...Outcome[]])
    .optional()
    .describe("only UNRESOLVED (a run said so) or ERRORED (the agent's run ended in error)"),
  format: z
    .enum(["json", "csv"])
    .default("json")
    .describe("csv: one row per failed trajectory with its cluster (an attachment)"),
});
export type ClusterQuery = z.infer<typeof ClusterQuerySchema>;

/** Steps read back from each trajectory's end to find its last error. */
export const STEPS_READ = 30;
/** Failed trajectories clustered at most; `capped` says when more matched. */
export const MAX_CLUSTERED = 5_000;
export const EXAMPLES_SHOWN = 5;

export type ClusterMember = {
  trajectoryId: string;
  taskId: string | null;
  instanceId: string | null;
  model: string | null;
  outcome: Outcome;
  stepIndex: number | null;
};
export type FailureCluster = {
  key: string;
  errorClass: string;
  tool: string | null;
  failingTests: string[];
  count: number;
  models: string[];
  members: ClusterMember[];
};
export type FailureClusters = { clusters: FailureCluster[]; trajectories: number; capped: boolean };

type FailedRow = {
  id: string;
  task_id: string | null;
  instance_id: string | null;
  model: string | null;
  outcome: Outcome;
  steps: SignatureStep[] | null;
  failing_tests: string[] | null;
};

async function readFailedTrajectories(db: Db, query: ClusterQuery, blind: BlindSet): Promise<FailedRow[]> {
  const outcomes = query.verdict ? [query.verdict] : [...FAILED_OUTCOMES];
  const { text, values } = sql`SELECT tr.id, t.id AS task_id, t.instance_id, tr.model, ${OUTCOME_SQL} AS outcome,
      (SELECT json_agg(json_build_object('index', s.index, 'action', left(s.action, 2000), 'observation', right(s.observation, 8000), 'metadata', s.metadata) ORDER BY s.index DESC)
         FROM (SELECT * FROM trajectory_steps s WHERE s.trajectory_id = tr.id ORDER BY s.index DESC LIMIT ${STEPS_READ}::int) s) AS steps,
      (SELECT array_agg(r.test_id ORDER BY r.test_id) FROM test_results r
         WHERE r.expected = 'PASSED' AND r.actual <> 'PASSED' AND r.run_id = (
           SELECT v.id FROM validation_runs v WHERE v.candidate_patch_id = tr.candidate_patch_id AND v.resolved IS NOT NULL
           ORDER BY v.finished_at DESC NULLS LAST, v.created_at DESC LIMIT 1)) AS failing_tests
    FROM trajectories tr LEFT JOIN tasks t ON t.id = tr.task_id LEFT JOIN candidate_patches cp ON cp.id = tr.candidate_patch_id
    WHERE tr.role = 'SOLVER' AND ${OUTCOME_SQL} = ANY(${outcomes}::text[]) AND ${trajectoryFilters(query, blind)}
    ORDER BY tr.id LIMIT ${MAX_CLUSTERED + 1}::int`.toQuery();
  return db.$queryRawUnsafe<FailedRow[]>(text, ...values);
}

function group(rows: readonly FailedRow[]): FailureCluster[] {
  const clusters = new Map<string, FailureCluster>();
  for (const row of rows) {
    const signature = failureSignature(row.steps ?? [], row.failing_tests ?? []);
    const key = signatureKey(signature);
    const cluster = clusters.get(key) ?? {
      key,
      errorClass: signature.errorClass,
      tool: signature.tool,
      failingTests: signature.failingTests,
      count: 0,
      models: [],
      members: [],
    };
    cluster.count += 1;
    if (row.model && !cluster.models.includes(row.model)) cluster.models.push(row.model);
    cluster.members.push({
      trajectoryId: row.id,
      taskId: row.task_id,
      instanceId: row.instance_id,
      model: row.model,
      outcome: row.outcome,
      stepIndex: signature.stepIndex,
    });
    clusters.set(key, cluster);
  }
  // the biggest first; ties in code-point order of the key (not the locale's), so the same data lists the same way everywhere
  const byKey = (a: FailureCluster, b: FailureCluster) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  return [...clusters.values()]
    .map((c) => ({ ...c, models: c.models.sort() }))
    .sort((a, b) => b.count - a.count || byKey(a, b));
}

/** The reader's failed trajectories (under the filters) grouped by failure signature, biggest cluster first. */
export async function clusterFailures(db: Db, query: ClusterQuery, blind: BlindSet): Promise<FailureClusters> {
  const rows = await readFailedTrajectories(db, query, blind);
  const clustered = rows.slice(0, MAX_CLUSTERED);
  return { clusters: group(clustered), trajectories: clustered.length, capped: rows.length > MAX_CLUSTERED };
}

/** Every clustered trajectory as one CSV row beside its cluster's signature (lib/csv/csv.ts defuses formulas). */
export function clustersToCsv(result: FailureClusters): string {
  const header = [
    "cluster",
    "error_class",
    "tool",
    "failing_tests",
    "cluster_size",
    "trajectory_id",
    "instance_id",
    "model",
    "outcome",
    "step",
  ];
  const rows = result.clusters.flatMap((c) =>
    c.members.map((m) => [
      c.key,
      c.errorClass,
      c.tool,
      c.failingTests.join(" "),
      c.count,
      m.trajectoryId,
      m.instanceId,
      m.model,
      m.outcome,
      m.stepIndex === null ? null : m.stepIndex + 1,
    ]),
  );
  return toCsv(header, rows);
}

/** The route's answer: the clusters as JSON, or every member as a CSV attachment. */
export async function failureClustersResponse(
  db: Db,
  query: ClusterQuery,
  blind: BlindSet,
): Promise<FailureClusters | Response> {
  const result = await clusterFailures(db, query, blind);
  if (query.format === "json") return result;
  return new Response(clustersToCsv(result), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="failure-clusters.csv"',
    },
  });
}

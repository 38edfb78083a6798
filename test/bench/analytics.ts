// npm run bench:analytics — each analytics computation against the raw aggregate SQL it rests on, in one run.
//
// Starts an embedded PostgreSQL of its own (random port, temporary folder), seeds 100,000 tasks
// (ISSUE_FIX, TDD_STEP, TEST_GENERATION), 50,000 validation runs and 20,000 reviewer
// trajectories with three steps each, then times, in this process, each page's computation
// (lib/analytics: SQL, ground truth, grouping, the tables) and, as the baseline, one raw
// aggregate statement over the same rows. Prints p50 / p95 and the ratio of the p95s.
// Each page is timed twice: as most requests find it (facts kept since the last write, see
// lib/analytics/fact-cache.ts) and as the first request after a write pays it (facts read again).
// Targets (issue 33): each page p95 ≤ 3× its raw SQL and < 150 ms; writes docs/bench-results/analytics.json.
// Usage: npm run bench:analytics [-- --tasks 100000 --samples 20 --pages reviewers,verifiability]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { ensureDatabaseExists, startEmbeddedPostgres } from "../../lib/database-server/database-server";
import { prepareDatabase } from "../../lib/db/prepare-database";
import { createPrismaClient } from "../../lib/db/client";
import { computeFunnel, FunnelQuerySchema } from "../../lib/analytics/funnel";
import { reviewerAnalytics, ReviewerQuerySchema } from "../../lib/analytics/reviewers";
import { generatedTestAnalytics, GeneratedTestQuerySchema } from "../../lib/analytics/generated-tests";
import { verifiabilityAnalytics } from "../../lib/analytics/verifiability";
import { NOT_BLIND } from "../../lib/auth/blind";
import { listTasks } from "../../lib/tasks/list-tasks";
import { withResolvedSlice } from "../../lib/analytics/resolve-slice";
import { freePort } from "../helpers/free-port";
import { machineState, writeBenchResults, type Figure } from "./results";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => Number(args[args.indexOf(`--${name}`) + 1] || 0) || fallback;
const TASKS = option("tasks", 100_000);
const RUNS = Math.round(TASKS / 2);
const TRAJECTORIES = Math.round(TASKS / 5);
const SAMPLES = option("samples", 20);
const WARMUP = 2;
const pagesArg = args.indexOf("--pages");
/** only these pages (comma-separated names), all when the option is absent */
const ONLY_PAGES = pagesArg >= 0 ? new Set(args[pagesArg + 1].split(",")) : null;

// every row from generate_series: deterministic, and fast enough to seed in seconds
const SEED = [
  `INSERT INTO repositories (id, owner, name, updated_at) SELECT 'repo-' || i, 'org-' || i, 'repo-' || i, now() FROM generate_series(0, 199) i`,
  `INSERT INTO environments (id, key, repository_id, base_commit, metadata, updated_at)
     SELECT 'env-' || i, 'env-' || i, 'repo-' || (i % 200), 'base', jsonb_build_object('recipeAuthor', 'model-' || (i % 7)), now() FROM generate_series(0, 1999) i`,
  `INSERT INTO environment_revisions (id, environment_id, number, dockerfile, eval_script, updated_at) SELECT 'rev-' || i, 'env-' || i, 1, 'FROM x', 'pytest', now() FROM generate_series(0, 1999) i`,
  `UPDATE environments SET current_revision_id = 'rev-' || substr(id, 5)`,
  `INSERT INTO tasks (id, instance_id, environment_id, kind, source, difficulty, problem_statement, fix_patch, test_patch, automated_verdict, failure_class, curation_status, metadata, updated_at)
     SELECT 'task-' || i, 'inst-' || i, 'env-' || (i % 2000),
       (CASE WHEN i % 20 = 0 THEN 'TEST_GENERATION' WHEN i % 10 = 1 THEN 'TDD_STEP' ELSE 'ISSUE_FIX' END)::"TaskKind",
       (ARRAY['SWE_BENCH','SWE_GYM','OPENSWE','SWE_FLOW'])[1 + i % 4]::"TaskSource", (ARRAY['EASY','MEDIUM','HARD'])[1 + i % 3]::"Difficulty",
       'statement ' || i, '+def f():\n+    return g()\n', 'test patch',
       (ARRAY['VALID','INVALID','FLAKY','PENDING'])[1 + (i / 3) % 4]::"AutomatedVerdict",
       CASE WHEN (i / 3) % 4 = 1 THEN (ARRAY['BUILD_ERROR','NEGATIVE_CONTROL_PASSED','POSITIVE_CONTROL_FAILED','TESTS_DID_NOT_RUN'])[1 + i % 4]::"FailureClass" END,
       (ARRAY['PENDING','APPROVED','REJECTED'])[1 + (i / 7) % 3]::"CurationStatus",
       CASE WHEN i % 20 = 0 THEN jsonb_build_object('generator', 'gen-' || (i % 5), 'generatedFor', 'inst-' || (i + 2)) END, now()
     FROM generate_series(0, $TASKS - 1) i`,
  // runs: two controls for every generated test and step, the rest candidate runs
  `INSERT INTO validation_runs (id, task_id, revision_id, kind, status, failure_class, log, finished_at, updated_at)
     SELECT 'run-' || k || '-' || i, 'task-' || i, 'rev-' || (i % 2000), k::"RunKind", 'SUCCEEDED',
       CASE WHEN i % 3 = 0 THEN (CASE k WHEN 'NEGATIVE_CONTROL' THEN 'NEGATIVE_CONTROL_PASSED' ELSE 'POSITIVE_CONTROL_FAILED' END)::"FailureClass" END,
       CASE WHEN i % 3 = 0 THEN 'E   NameError: name ''g'' is not defined' END, now(), now()
     FROM generate_series(0, $TASKS - 1) i, unnest(ARRAY['NEGATIVE_CONTROL','POSITIVE_CONTROL']) k WHERE i % 20 = 0 OR i % 10 = 1`,
  `INSERT INTO candidate_patches (id, task_id, generator, patch, updated_at) SELECT 'cand-' || i, 'task-' || (i * 5 + 2), 'gen-' || (i % 9), '+x', now() FROM generate_series(0, $TRAJECTORIES - 1) i`,
  `INSERT INTO validation_runs (id, task_id, revision_id, candidate_patch_id, kind, status, resolved, finished_at, updated_at)
     SELECT 'crun-' || i, 'task-' || ((i % $TRAJECTORIES) * 5 + 2), 'rev-0', 'cand-' || (i % $TRAJECTORIES), 'CANDIDATE', 'SUCCEEDED', i % 2 = 0, now(), now()
     FROM generate_series(0, $RUNS - (SELECT count(*) FROM validation_runs)::int - 1) i`,
  `INSERT INTO trajectories (id, external_id, task_id, candidate_patch_id, role, format, model, decision, confidence, step_count, tokens_in, tokens_out, cost_usd, updated_at)
     SELECT 'traj-' || i, 'traj-' || i, 'task-' || (i * 5 + 2), 'cand-' || i, 'REVIEWER', 'OTHER', 'reviewer-' || (i % 4),
       (CASE WHEN i % 3 = 0 THEN 'REQUEST_CHANGES' ELSE 'APPROVE' END)::"ReviewerDecision", (i % 100) / 100.0, 3, 1000, 100, 0.01, now()
     FROM generate_series(0, $TRAJECTORIES - 1) i`,
  `INSERT INTO trajectory_steps (id, trajectory_id, index, action, updated_at)
     SELECT 'step-' || i || '-' || s, 'traj-' || i, s, (ARRAY['cat a.py', 'grep -rn x .', 'python reproduce.py'])[1 + (i + s) % 3], now()
     FROM generate_series(0, $TRAJECTORIES - 1) i, generate_series(0, 2) s`,
  // as the importer sets it: each seeded review has one of each action, 'python reproduce.py' among them
  `UPDATE trajectories SET ran_reproducer = TRUE`,
  `VACUUM ANALYZE`,
];

// the baselines: one aggregate statement over the rows each page reads
const BASELINES: Record<string, string> = {
  "funnel, no split": `SELECT t.automated_verdict, t.failure_class, t.curation_status, count(*) FROM tasks t WHERE t.kind <> 'TEST_GENERATION' GROUP BY 1, 2, 3`,
  funnel: `SELECT t.automated_verdict, t.failure_class, t.curation_status, count(*) FROM tasks t WHERE t.kind <> 'TEST_GENERATION' GROUP BY 1, 2, 3`,
  reviewers: `SELECT tr.model, tr.decision, count(*), sum(tr.tokens_in), count(s.action) FROM trajectories tr
              LEFT JOIN trajectory_steps s ON s.trajectory_id = tr.id WHERE tr.role = 'REVIEWER' GROUP BY 1, 2`,
  "generated tests": `SELECT t.metadata->>'generator', v.kind, v.failure_class, count(*) FROM tasks t JOIN validation_runs v ON v.task_id = t.id
                      WHERE t.kind = 'TEST_GENERATION' GROUP BY 1, 2, 3`,
  verifiability: `SELECT t.environment_id, v.failure_class, count(*) FROM tasks t JOIN validation_runs v ON v.task_id = t.id
                  WHERE t.kind = 'TDD_STEP' AND v.kind = 'POSITIVE_CONTROL' GROUP BY 1, 2`,
  "task list, funnel slice": `SELECT count(*) FROM tasks t WHERE t.kind <> 'TEST_GENERATION' AND t.curation_status = 'APPROVED'`,
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
/** `before` runs ahead of each sample, untimed (a write, so the sample reads everything again). */
async function time(
  fn: () => Promise<unknown>,
  before?: () => Promise<unknown>,
): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    if (before) await before();
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** A write to a table every page reads: the next read of each page reads its facts again. */
const WRITE = `UPDATE trajectories SET updated_at = now() WHERE id = 'traj-0'`;
const MAX_MS = 150;
/** the pages whose facts lib/analytics/fact-cache.ts keeps between writes */
const CACHED_PAGES = new Set(["reviewers", "generated tests", "verifiability"]);
const MAX_RATIO = 3;

async function main() {
  const atStart = machineState();
  const dataDir = mkdtempSync(path.join(tmpdir(), "swe-curator-bench-analytics-"));
  process.env.EMBEDDED_PG_FSYNC = "off";
  const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), quiet: true });
  const url = `${server.baseUrl}/swe_curator_bench`;
  try {
    await ensureDatabaseExists(url);
    await prepareDatabase(url);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on("error", () => {});
    const seeded = performance.now();
    for (const statement of SEED)
      await pool.query(
        statement
          .replace(/\$TASKS/g, String(TASKS))
          .replace(/\$TRAJECTORIES/g, String(TRAJECTORIES))
          .replace(/\$RUNS/g, String(RUNS)),
      );
    const counts = (
      await pool.query(
        `SELECT (SELECT count(*) FROM tasks) t, (SELECT count(*) FROM validation_runs) r, (SELECT count(*) FROM trajectories) j`,
      )
    ).rows[0];
    console.log(
      `seeded ${counts.t} tasks, ${counts.r} validation runs, ${counts.j} reviewer trajectories in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
    );

    const prisma = createPrismaClient(url, 2);
    const pages: Record<string, () => Promise<unknown>> = {
      funnel: () => computeFunnel(prisma, FunnelQuerySchema.parse({ by: "repository" }), NOT_BLIND),
      "funnel, no split": () => computeFunnel(prisma, FunnelQuerySchema.parse({}), NOT_BLIND),
      reviewers: () => reviewerAnalytics(prisma, ReviewerQuerySchema.parse({ by: "reviewer,generator" }), NOT_BLIND),
      "generated tests": () => generatedTestAnalytics(prisma, GeneratedTestQuerySchema.parse({}), NOT_BLIND),
      verifiability: () => verifiabilityAnalytics(prisma, {}, NOT_BLIND),
      "task list, funnel slice": async () =>
        listTasks(
          prisma,
          { slice: "funnel;stage=approved" },
          await withResolvedSlice(prisma, "funnel;stage=approved", {}),
        ),
    };
    console.log(
      `\n${"page".padEnd(40)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"raw p95".padStart(8)} ${"ratio".padStart(7)}  target`,
    );
    const figures: Figure[] = [];
    for (const [name, run] of Object.entries(pages)) {
      if (ONLY_PAGES && !ONLY_PAGES.has(name)) continue;
      const raw = await time(() => pool.query(BASELINES[name]));
      const passes = [
        [name, undefined],
        [`${name}, first read after a write`, () => pool.query(WRITE)],
      ] as const;
      for (const [label, before] of CACHED_PAGES.has(name) ? passes : passes.slice(0, 1)) {
        const page = await time(run, before);
        const ratio = page.p95 / raw.p95;
        // issue 33's targets are for the pages computed in code; the others keep this bench's earlier p95 < 300 ms
        const cached = CACHED_PAGES.has(name);
        const met = cached ? ratio <= MAX_RATIO && page.p95 < MAX_MS : page.p95 < 300;
        // the first read after a write has no target of its own: it is what one request in many pays
        const target = before
          ? "none (one request per write pays it)"
          : cached
            ? `≤ ${MAX_RATIO}× raw SQL, < ${MAX_MS} ms`
            : "< 300 ms";
        figures.push({
          figure: `analytics, ${label}, p95`,
          measured: page.p95,
          baselineName: "its raw aggregate SQL, p95",
          baseline: raw.p95,
          unit: "ms",
          target,
          met: before ? null : met,
        });
        console.log(
          `${label.padEnd(40)} ${page.p50.toFixed(1).padStart(8)} ${page.p95.toFixed(1).padStart(8)} ${raw.p95.toFixed(1).padStart(8)} ${ratio.toFixed(1).padStart(6)}×  ${met ? "ok" : "MISSED"}`,
        );
      }
    }
    writeBenchResults("analytics", figures, atStart, { tasks: TASKS, samples: SAMPLES });
    await prisma.$disconnect();
    await pool.end();
    process.exitCode = figures.some((f) => f.met === false) ? 1 : 0;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

// npm run bench:analytics — each analytics computation against the raw aggregate SQL it rests on, in one run.
//
// Starts an embedded PostgreSQL of its own (random port, temporary folder), seeds 100,000 tasks
// (ISSUE_FIX, TDD_STEP, TEST_GENERATION), 50,000 validation runs and 20,000 reviewer
// trajectories with three steps each, then times, in this process, each page's computation
// (lib/analytics: SQL, ground truth, grouping, the tables) and, as the baseline, one raw
// aggregate statement over the same rows. Prints p50 / p95 and the ratio of the p95s.
// The pages whose facts lib/analytics/fact-cache.ts keeps are timed three ways: cold (nothing
// kept: a process's first request), warm (facts kept, nothing written since: most requests) and
// as the first request after a small write pays it (10 curation decisions on tasks with facts
// on every page: the changes are folded in). Each as a ratio of the raw SQL timed in the same run.
// --explain prints EXPLAIN ANALYZE of each page's full fact query and of its re-read for 10 tasks.
// Targets (issue 33): each page p95 ≤ 3× its raw SQL and < 150 ms; writes docs/bench-results/analytics.json.
// Usage: npm run bench:analytics [-- --tasks 100000 --samples 20 --pages reviewers,verifiability]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { ensureDatabaseExists, startEmbeddedPostgres } from "../../lib/database-server/database-server";
import { prepareDatabase } from "../../lib/db/prepare-database";
import { createPrismaClient } from "../../lib/db/client";
import { computeFunnel, funnelSql, FunnelQuerySchema } from "../../lib/analytics/funnel";
import { reviewerAnalytics, ReviewerQuerySchema } from "../../lib/analytics/reviewers";
import { generatedTestAnalytics, GeneratedTestQuerySchema } from "../../lib/analytics/generated-tests";
import { verifiabilityAnalytics } from "../../lib/analytics/verifiability";
import { forgetFacts, lastFactRead, TASKS_OF_CANDIDATES_SQL } from "../../lib/analytics/fact-cache";
import { NOT_BLIND } from "../../lib/auth/blind";
import { listTasks } from "../../lib/tasks/list-tasks";
import { withResolvedSlice } from "../../lib/analytics/resolve-slice";
import { latestControlRunsSql } from "../../lib/analytics/control-runs";
import { reviewsSqlFor } from "../../lib/analytics/reviewers";
import { stepsSqlFor } from "../../lib/analytics/verifiability";
import type { SqlFragment } from "../../lib/db/sql";
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
  `INSERT INTO users (id, email, role, updated_at) VALUES ('curator', 'curator@bench.invalid', 'CURATOR', now())`,
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
/** `before` runs ahead of each sample, untimed (a write, or forgetting the kept facts). */
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

/**
 * A small write: 10 curation decisions (the decision and its task's status) on tasks with facts
 * on every cached page: reviewed tasks (i*5+2), generated tests (i%20=0) and steps (i%10=1).
 */
let decisions = 0;
function tenDecisions(pool: pg.Pool) {
  const n = ++decisions;
  const ids = Array.from({ length: 10 }, (_, k) => {
    const i = (n * 10 + k) * 7919;
    return `task-${[((i % TRAJECTORIES) * 5 + 2) % TASKS, (i * 20) % TASKS, (i * 10 + 1) % TASKS][k % 3]}`;
  });
  return pool.query(
    `WITH decided AS (
       INSERT INTO curation_decisions (id, task_id, curator_id, verdict, updated_at)
       SELECT 'decision-' || $2 || '-' || id, id, 'curator', 'APPROVE', now() FROM unnest($1::text[]) id RETURNING task_id)
     UPDATE tasks SET curation_status = 'APPROVED', updated_at = now() WHERE id IN (SELECT task_id FROM decided)`,
    [ids, n],
  );
}
const MAX_MS = 150;
/** the pages whose facts lib/analytics/fact-cache.ts keeps between writes */
const CACHED_PAGES = new Set(["reviewers", "generated tests", "verifiability"]);
const MAX_RATIO = 3;
/** the facts each cached page reads (the names lib/analytics/fact-cache.ts keeps them under) */
const FACTS_OF: Record<string, string[]> = {
  reviewers: ["reviews", "revision pairs"],
  "generated tests": ["generated tests"],
  verifiability: ["steps"],
};

/** The profile behind the figures: where a full read of each page's facts goes, and what a fold re-reads. */
async function explainFactQueries(pool: pg.Pool) {
  const some = Array.from({ length: 10 }, (_, k) => `task-${k * 20}`)
    .concat(Array.from({ length: 10 }, (_, k) => `task-${k * 10 + 1}`))
    .concat(Array.from({ length: 10 }, (_, k) => `task-${k * 5 + 2}`));
  const queries: [string, SqlFragment][] = [
    ["reviews", reviewsSqlFor()],
    ["reviews of 30 tasks", reviewsSqlFor(some)],
    ["generated tests", latestControlRunsSql("TEST_GENERATION")],
    ["generated tests of 30 tasks", latestControlRunsSql("TEST_GENERATION", some)],
    ["steps", stepsSqlFor()],
    ["steps of 30 tasks", stepsSqlFor(some)],
    ["funnel by repository", funnelSql(FunnelQuerySchema.parse({ by: "repository" }), NOT_BLIND)],
  ];
  const plans: [string, string, unknown[]][] = [["tasks 30 changed tasks reach", TASKS_OF_CANDIDATES_SQL, [some, []]]];
  for (const [label, fragment] of queries) {
    const { text, values } = fragment.toQuery();
    plans.push([label, text, values]);
  }
  for (const [label, text, values] of plans) {
    const plan = await pool.query(`EXPLAIN (ANALYZE, BUFFERS OFF) ${text}`, values);
    console.log(`\n-- EXPLAIN ANALYZE, ${label}\n${plan.rows.map((r) => r["QUERY PLAN"]).join("\n")}`);
  }
}

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
      `\n${"page".padEnd(48)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"raw p95".padStart(8)} ${"ratio".padStart(7)}  target`,
    );
    const figures: Figure[] = [];
    for (const [name, run] of Object.entries(pages)) {
      if (ONLY_PAGES && !ONLY_PAGES.has(name)) continue;
      const raw = await time(() => pool.query(BASELINES[name]));
      const cached = CACHED_PAGES.has(name);
      const passes: [string, string, (() => Promise<unknown>) | undefined][] = cached
        ? [
            [`${name}, cold`, "cold", async () => forgetFacts(prisma)],
            [name, "warm", undefined],
            [`${name}, first read after 10 decisions`, "after a write", () => tenDecisions(pool)],
          ]
        : [[name, "", undefined]];
      for (const [label, pass, before] of passes) {
        const page = await time(run, before);
        const ratio = page.p95 / raw.p95;
        // issue 33's targets are for the pages computed in code; the others keep this bench's earlier p95 < 300 ms
        const met = cached ? ratio <= MAX_RATIO && page.p95 < MAX_MS : page.p95 < 300;
        // cold has no target of its own: one request per process pays it
        const target =
          pass === "cold"
            ? "none (one request per process pays it)"
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
          met: pass === "cold" ? null : met,
        });
        const how =
          pass === "after a write" ? `  (${FACTS_OF[name].map((f) => lastFactRead(prisma, f)).join(", ")})` : "";
        console.log(
          `${label.padEnd(48)} ${page.p50.toFixed(1).padStart(8)} ${page.p95.toFixed(1).padStart(8)} ${raw.p95.toFixed(1).padStart(8)} ${ratio.toFixed(1).padStart(6)}×  ${pass === "cold" ? "—" : met ? "ok" : "MISSED"}${how}`,
        );
      }
    }
    if (args.includes("--explain")) {
      await explainFactQueries(pool);
      // what a fold pays besides its SQL: a statement's round trip, and a REPEATABLE READ transaction's
      const statement = await time(() => prisma.$queryRawUnsafe("SELECT 1"));
      const transaction = await time(() =>
        prisma.$transaction((tx) => tx.$queryRawUnsafe("SELECT 1"), { isolationLevel: "RepeatableRead" }),
      );
      console.log(`\nround trip p50 ${statement.p50.toFixed(1)} ms, transaction p50 ${transaction.p50.toFixed(1)} ms`);
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

// npm run bench:browse — the task list endpoint against the same SQL run raw, in one run.
//
// Starts an embedded PostgreSQL of its own (random port, temporary data folder), seeds
// 100,000 tasks with SWE-bench-like text sizes (problem statements, fix and test patches),
// decisions and reviewer verdicts, then starts the production build (`next start`) against it and,
// for 10 representative filter + search + sort combinations, measures:
//   - p50 / p95 latency of GET /api/v1/tasks over HTTP (auth, zod, SQL, JSON: what the UI pays);
//   - p50 / p95 of the very same SQL statement sent straight to Postgres with pg (the baseline).
// Targets: endpoint p95 < 50 ms and endpoint p95 within 3× of the raw SQL p95.
// The facet endpoint (counts over the whole filtered set) is timed the same way against its two
// statements run raw (in parallel, as the endpoint runs them). Target: facets p95 < 100 ms.
// Writes docs/bench-results/browse.json (browse-1m.json with --million) for npm run bench:report:
// each filter's list and facets p95 against their raw SQL, and the slowest filter of each.
// Usage: npm run bench:browse [-- --tasks 100000 --million --samples 60 --sql-only]   (BENCH_SKIP_BUILD=1 reuses .next as it is)

import type { ChildProcess } from "node:child_process";
import http from "node:http";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { ensureDatabaseExists, startEmbeddedPostgres } from "../../lib/database-server/database-server";
import { prepareDatabase } from "../../lib/db/prepare-database";
import { createPrismaClient } from "../../lib/db/client";
import { createApiToken } from "../../lib/auth/api-tokens";
import { TaskListQuerySchema } from "../../lib/tasks/task-filters";
import { listTasksSql, planListRead } from "../../lib/tasks/list-tasks";
import type { TaskListQuery } from "../../lib/tasks/task-filters";
import type { FilterContext } from "../../lib/tasks/task-list-sql";
import type { SqlFragment } from "../../lib/db/sql";
import { facetCountsSql, repositoryCountsSql } from "../../lib/tasks/task-facets";
import { PROJECT_ROOT } from "../../lib/db/schema-engine";
import { blindTaskIdsSql } from "../../lib/auth/blind";
import { ensureProductionBuild } from "../../scripts/production-build";
import { startNext } from "./next-start";
import { freePort } from "../helpers/free-port";
import { machineState, writeBenchResults, type Figure } from "./results";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => Number(args[args.indexOf(`--${name}`) + 1] || 0) || fallback;
/** --million: the list and its facets at 1,000,000 tasks (issue 33's scale; COPY seeds it in minutes) */
const MILLION = args.includes("--million");
const TASKS = MILLION ? 1_000_000 : option("tasks", 100_000);
const SAMPLES = option("samples", 200);
const SQL_ONLY = args.includes("--sql-only");
const EXPLAIN = args.includes("--explain");
/** BENCH_DATA_DIR keeps the seeded database between runs (for tuning); by default it is temporary */
const KEPT_DATA_DIR = process.env.BENCH_DATA_DIR;
const WARMUP = 5;
/** The list's endpoint p95 within this many times its raw SQL: issue 33 asks 2× at a million tasks */
const RATIO_TARGET = MILLION ? 2 : 3;
const ENVIRONMENTS = 2_000;

// ── deterministic text of realistic shape: Zipf-like word frequencies, SWE-bench sizes ──
// mulberry32: a small PRNG whose successive draws are independent enough (an LCG's low
// bits made some filter combinations never co-occur, which no real dataset does)
let prngState = 7;
const rand = () => {
  prngState = (prngState + 0x6d2b79f5) | 0;
  let t = Math.imul(prngState ^ (prngState >>> 15), 1 | prngState);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const between = (min: number, max: number) => Math.floor(min + rand() * (max - min));
const pick = <T>(items: readonly T[]) => items[between(0, items.length)];
/** skewed towards the front of a list: a few values are common, most are rare */
const pickSkewed = <T>(items: readonly T[]) => items[Math.floor(rand() ** 2.5 * items.length)];
const weighted = <T extends string>(table: [T, number][]): T => {
  let r = rand() * table.reduce((s, [, w]) => s + w, 0);
  for (const [value, w] of table) if ((r -= w) < 0) return value;
  return table[0][0];
};

const COMMON =
  "the a an is are to of in and or when with for on it this that not be should returns raises but if we from as by at can".split(
    " ",
  );
const DOMAIN = (
  "value error function method class module import argument parameter default type list dict index column frame series array matrix " +
  "test case fixture assert expected actual output input file path directory config setting option flag request response query model " +
  "field form view template url router middleware session cookie header token user permission cache database migration schema table " +
  "serializer validator parser lexer token node tree visitor transformer plugin hook callback event signal thread process lock timeout " +
  "encoding decode unicode bytes string format locale timezone datetime date time duration float integer decimal precision rounding " +
  "regression deprecation warning exception traceback stack frame recursion overflow memory leak performance slow crash hang segfault"
).split(" ");
const SYLLABLES = "ka lo mi nu pe ra si to vu wex yal zor bin cet dup fim gor hup jix kel".split(" ");
const IDENTIFIERS = Array.from(
  { length: 20_000 },
  (_, i) => `${SYLLABLES[i % 19]}${SYLLABLES[(i >> 3) % 19]}_${SYLLABLES[(i >> 6) % 19]}${i}`,
);

function prose(chars: number): string {
  const out: string[] = [];
  let length = 0;
  while (length < chars) {
    const r = rand();
    const word = r < 0.55 ? pick(COMMON) : r < 0.93 ? pickSkewed(DOMAIN) : pick(IDENTIFIERS);
    out.push(word);
    length += word.length + 1;
    if (rand() < 0.06) out.push(rand() < 0.5 ? ".\n\n" : "\n```python\n>>> " + pick(IDENTIFIERS) + "()\n```\n");
  }
  return out.join(" ");
}
/** SWE-bench statement and patch sizes are long-tailed: most are 0.5–2 KB, some much longer */
const longTail = (median: number) => Math.round(median * Math.exp((rand() - 0.5) * 2.2));

function patch(file: string, chars: number): string {
  const lines = [
    `diff --git a/${file} b/${file}`,
    `index 1a2b3c4..5d6e7f8 100644`,
    `--- a/${file}`,
    `+++ b/${file}`,
    `@@ -${between(1, 900)},12 +${between(1, 900)},14 @@ def ${pick(IDENTIFIERS)}():`,
  ];
  let length = 0;
  while (length < chars) {
    const line = `${pick([" ", " ", "+", "-"])}    ${prose(between(20, 70)).replace(/\n/g, " ")}`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join("\n") + "\n";
}

const REAL_REPOS = [
  "django/django",
  "sympy/sympy",
  "astropy/astropy",
  "scikit-learn/scikit-learn",
  "matplotlib/matplotlib",
  "pytest-dev/pytest",
  "sphinx-doc/sphinx",
  "pydata/xarray",
  "psf/requests",
  "pylint-dev/pylint",
  "pallets/flask",
  "mwaskom/seaborn",
];
const REPOS = [...REAL_REPOS, ...Array.from({ length: 188 }, (_, i) => `org-${i}/repo-${i}`)];
const SOURCES: [string, number][] = [
  ["SWE_BENCH", 20],
  ["SWE_GYM", 20],
  ["SWE_SMITH", 25],
  ["SWE_REBENCH", 10],
  ["OPENSWE", 20],
  ["SWE_FLOW", 5],
];
const VERDICTS: [string, number][] = [
  ["VALID", 45],
  ["INVALID", 30],
  ["FLAKY", 5],
  ["PENDING", 20],
];
const STATUSES: [string, number][] = [
  ["PENDING", 60],
  ["APPROVED", 20],
  ["REJECTED", 12],
  ["NEEDS_CHANGES", 8],
];
const FAILURES = [
  "BUILD_ERROR",
  "EVAL_SCRIPT_ERROR",
  "TESTS_DID_NOT_RUN",
  "NEGATIVE_CONTROL_PASSED",
  "POSITIVE_CONTROL_FAILED",
  "TIMEOUT",
  "INFRA_ERROR",
];
const REASONS = [
  "ISSUE_PATCH_MISALIGNED",
  "SOLUTION_LEAKED_IN_ISSUE",
  "TRIVIAL",
  "UNSOLVABLE",
  "FLAKY",
  "ENVIRONMENT_BROKEN",
  "TESTS_TOO_WEAK",
  "OTHER",
];
const LABELS = ["needs-triage", "hard-to-reproduce", "docs", "batch-7", "network"];

// COPY text format: backslash, tab, newline and carriage return are escaped
const esc = (v: string | null) =>
  v === null ? "\\N" : v.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");
const arr = (items: string[]) => `{${items.map((i) => `"${i.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(",")}}`;
const YEAR_MS = 365 * 86_400_000;
const START = Date.UTC(2025, 0, 1);

async function copyRows(client: pg.PoolClient, table: string, columns: string[], rows: Iterable<string>) {
  const stream = client.query(copyFrom(`COPY ${table} (${columns.join(", ")}) FROM STDIN`));
  await pipeline(Readable.from(rows), stream);
}

/**
 * Runs `load` with the tables' secondary indexes dropped, then builds them again. At 1,000,000
 * tasks, COPY into the indexed tables left their full-text (GIN) indexes a pending list of a
 * million rows, which the VACUUM after it merged for over 15 minutes; one CREATE INDEX each
 * builds them in bulk. Indexes behind a constraint (primary keys) stay.
 */
async function withIndexesRebuilt(client: pg.PoolClient, tables: string[], load: () => Promise<void>) {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `SELECT quote_ident(i.indexname) AS name, i.indexdef AS definition FROM pg_indexes i
     WHERE i.schemaname = current_schema() AND i.tablename = ANY($1)
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)`,
    [tables],
  );
  for (const index of rows) await client.query(`DROP INDEX ${index.name}`);
  await load();
  await client.query("SET maintenance_work_mem = '512MB'");
  for (const index of rows) await client.query(index.definition);
  await client.query("RESET maintenance_work_mem");
}

async function seedTasks(pool: pg.Pool) {
  const client = await pool.connect();
  try {
    const now = new Date().toISOString();
    const users = Array.from({ length: 8 }, (_, i) => `bench-curator-${i}`);
    await copyRows(
      client,
      "users",
      ["id", "email", "name", "role", "created_at", "updated_at"],
      users.map((id, i) => `${id}\t${id}@bench.local\tCurator ${i}\tCURATOR\t${now}\t${now}\n`),
    );
    await copyRows(
      client,
      "repositories",
      ["id", "owner", "name", "created_at", "updated_at"],
      REPOS.map((r, i) => `repo-${i}\t${r.split("/")[0]}\t${r.split("/")[1]}\t${now}\t${now}\n`),
    );
    await copyRows(
      client,
      "environments",
      ["id", "key", "repository_id", "base_commit", "source", "created_at", "updated_at"],
      (function* () {
        for (let e = 0; e < ENVIRONMENTS; e++)
          yield `env-${e}\t${REPOS[e % REPOS.length]}@${e.toString(16).padStart(8, "0")}\trepo-${e % REPOS.length}\t${e.toString(16).padStart(40, "0")}\tOTHER\t${now}\t${now}\n`;
      })(),
    );
    const evalScript =
      '#!/bin/bash\nset -uxo pipefail\ncd /testbed\ngit checkout {base} -- tests\npython -m pytest -rA tests\necho "OPENSWE_EXIT_CODE=$?"\n';
    await copyRows(
      client,
      "environment_revisions",
      ["id", "environment_id", "number", "dockerfile", "eval_script", "reason", "created_at", "updated_at"],
      (function* () {
        for (let e = 0; e < ENVIRONMENTS; e++)
          yield `rev-${e}\tenv-${e}\t1\t${esc(`FROM python:3.11\nRUN pip install -e .[test]\n`)}\t${esc(evalScript)}\timported\t${now}\t${now}\n`;
      })(),
    );
    await client.query("UPDATE environments SET current_revision_id = 'rev-' || substr(id, 5)");

    const decisions: string[] = [];
    const trajectories: string[] = [];
    const taskRows = function* () {
      for (let i = 0; i < TASKS; i++) {
        const env = between(0, ENVIRONMENTS);
        const repo = REPOS[env % REPOS.length];
        const instance = `${repo.replace("/", "__")}-${10_000 + i}`;
        const verdict = weighted(VERDICTS as [string, number][]);
        const status = weighted(STATUSES as [string, number][]);
        const failure = verdict === "INVALID" ? pick(FAILURES) : null;
        let statement = `## ${prose(between(30, 90)).replace(/\n/g, " ")}\n\n${prose(longTail(1_300))}`;
        if (rand() < 0.004) statement += "\n\nTraceback (most recent call last):\nZeroDivisionError: division by zero";
        const created = new Date(START + rand() * YEAR_MS).toISOString();
        const labels = rand() < 0.1 ? [pick(LABELS)] : [];
        const difficulty = rand() < 0.3 ? null : pick(["EASY", "MEDIUM", "HARD", "VERY_HARD"]);
        const testFile = `tests/test_${pick(IDENTIFIERS)}.py`;
        const decided = status !== "PENDING" || rand() < 0.1;
        let reasons: string[] = [];
        if (decided) {
          const verdictOfHuman =
            status === "APPROVED"
              ? "APPROVE"
              : status === "REJECTED"
                ? "REJECT"
                : status === "NEEDS_CHANGES"
                  ? "NEEDS_CHANGES"
                  : pick(["APPROVE", "REJECT"]);
          reasons = verdictOfHuman === "APPROVE" ? [] : [pick(REASONS)];
          decisions.push(
            `dec-${i}\ttask-${i}\t${pick(users)}\t${verdictOfHuman}\t${arr(reasons)}\t${created}\t${created}\n`,
          );
        }
        const reviewerDecisions = rand() < 0.2 ? [rand() < 0.6 ? "APPROVE" : "REQUEST_CHANGES"] : [];
        if (reviewerDecisions.length)
          trajectories.push(
            `traj-${i}\treviewer-${i}\ttask-${i}\tREVIEWER\tOTHER\t${reviewerDecisions[0]}\t${created}\t${created}\n`,
          );
        yield (
          [
            `task-${i}`,
            instance,
            `env-${env}`,
            weighted([
              ["ISSUE_FIX", 85],
              ["TDD_STEP", 10],
              ["TEST_GENERATION", 5],
            ]),
            weighted(SOURCES as [string, number][]),
            difficulty,
            statement,
            patch(`src/${pick(IDENTIFIERS)}.py`, longTail(1_500)),
            patch(testFile, longTail(2_200)),
            arr([`${testFile}::test_${pick(IDENTIFIERS)}`]),
            arr(Array.from({ length: between(0, 30) }, () => `${testFile}::test_${pick(IDENTIFIERS)}`)),
            verdict,
            failure,
            status,
            "1",
            arr(labels),
            String(decided),
            arr(reasons),
            arr(reviewerDecisions),
            created,
            created,
          ]
            .map((v) => esc(v))
            .join("\t") + "\n"
        );
      }
    };
    await withIndexesRebuilt(client, ["tasks", "curation_decisions", "trajectories"], async () => {
      await copyRows(
        client,
        "tasks",
        [
          "id",
          "instance_id",
          "environment_id",
          "kind",
          "source",
          "difficulty",
          "problem_statement",
          "fix_patch",
          "test_patch",
          "fail_to_pass",
          "pass_to_pass",
          "automated_verdict",
          "failure_class",
          "curation_status",
          "version",
          "labels",
          "decided",
          "decision_reasons",
          "reviewer_decisions",
          "created_at",
          "updated_at",
        ],
        taskRows(),
      );
      // the tasks already carry what their decisions and trajectories say (set above); the
      // triggers that keep it would look up each of 500,000 tasks' children again, and without
      // indexes (dropped during the load). Replica mode skips triggers (and foreign key checks).
      await client.query("SET session_replication_role = replica");
      await copyRows(
        client,
        "curation_decisions",
        ["id", "task_id", "curator_id", "verdict", "reasons", "created_at", "updated_at"],
        decisions,
      );
      await copyRows(
        client,
        "trajectories",
        ["id", "external_id", "task_id", "role", "format", "decision", "created_at", "updated_at"],
        trajectories,
      );
      await client.query("RESET session_replication_role");
    });
    await client.query("VACUUM ANALYZE");
    return { decisions: decisions.length, trajectories: trajectories.length };
  } finally {
    client.release();
  }
}

// ten combinations a curator actually uses, from the plain list to selective search
const QUERIES: { name: string; query: string }[] = [
  { name: "newest first, no filter", query: "" },
  { name: "pending queue", query: "status=PENDING" },
  {
    name: "invalid: tests did not run / positive failed",
    query: "verdict=INVALID&failureClass=TESTS_DID_NOT_RUN,POSITIVE_CONTROL_FAILED",
  },
  { name: "SWE-Gym hard, recently updated", query: "source=SWE_GYM&difficulty=HARD&sort=updated_desc" },
  { name: "search a rare error name", query: "q=ZeroDivisionError" },
  { name: "search a common word + pending", query: "q=serializer&status=PENDING" },
  { name: "search instance id prefix, A→Z", query: "q=django__django-1&sort=instance_asc" },
  { name: "one repository, valid", query: "repository=sympy/sympy&verdict=VALID" },
  { name: "decided, reason flaky", query: "decided=yes&reason=FLAKY" },
  {
    name: "reviewer asked changes, pending, oldest",
    query: "reviewerDecision=REQUEST_CHANGES&status=PENDING&sort=created_asc",
  },
];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
};

// The client is node:http on one kept-alive socket rather than fetch: the endpoint's time
// is what is judged, and fetch's own overhead (and garbage) added ~1 ms and a tail to every
// API sample that the raw SQL samples, read with pg, did not carry.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** GETs a URL on the bench's server: its status and body. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
        response.on("error", reject);
      })
      .on("error", reject);
  });
}

/** Times two ways of getting the same answer, alternating sample by sample, so both meet the same moments of the machine. */
async function timeSideBySide(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  samples: number,
): Promise<[number[], number[]]> {
  for (let i = 0; i < WARMUP; i++) {
    await a();
    await b();
  }
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < samples; i++) {
    for (const [k, fn] of [a, b].entries()) {
      const start = performance.now();
      await fn();
      times[k].push(performance.now() - start);
    }
  }
  return times;
}

async function time(fn: () => Promise<unknown>, samples: number): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times;
}

const fmt = (ms: number) => ms.toFixed(1).padStart(7);

/** planListRead's statements, sent raw: the same ListPlan the endpoint arrives at. */
const planRawRead = (pool: pg.Pool, query: TaskListQuery, context: FilterContext) =>
  planListRead(
    async <T>(statement: SqlFragment) => {
      const { text, values } = statement.toQuery();
      return (await pool.query(text, values)).rows as T[];
    },
    query,
    context,
  );

async function main() {
  const atStart = machineState();
  if (SQL_ONLY) console.log("[bench] --sql-only: timing the SQL alone, no web server");
  else if (process.env.BENCH_SKIP_BUILD === "1" && existsSync(path.join(PROJECT_ROOT, ".next", "BUILD_ID")))
    console.log("[bench] reusing the existing production build");
  else await ensureProductionBuild();

  const dataDir = KEPT_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "swe-curator-bench-browse-"));
  process.env.EMBEDDED_PG_FSYNC = "off";
  const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), quiet: true });
  const url = `${server.baseUrl}/swe_curator_bench`;
  let next: ChildProcess | undefined;
  try {
    await ensureDatabaseExists(url);
    await prepareDatabase(url);
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    pool.on("error", () => {}); // an idle connection closed when the server stops is expected
    const started = performance.now();
    const existing = Number((await pool.query("select count(*) from tasks")).rows[0].count);
    const size = async () =>
      (await pool.query("select pg_size_pretty(pg_total_relation_size('tasks')) as s")).rows[0].s;
    if (existing > 0) {
      await pool.query("VACUUM ANALYZE");
      console.log(`[bench] reusing ${existing.toLocaleString()} seeded tasks in ${dataDir} (${await size()})`);
    } else {
      const seeded = await seedTasks(pool);
      console.log(
        `[bench] seeded ${TASKS.toLocaleString()} tasks (${await size()} with indexes), ${seeded.decisions.toLocaleString()} decisions, ${seeded.trajectories.toLocaleString()} reviewer trajectories in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }

    // what the endpoints pass their statements for this curator (lib/http/task-list-context.ts), so the raw SQL is the same SQL
    const context = {
      actorId: "bench-curator-0",
      hiddenTasks: blindTaskIdsSql({ id: "bench-curator-0", role: "CURATOR" }),
    };
    const prisma = createPrismaClient(url, 2);
    const { token } = await createApiToken(prisma, "bench-curator-0", { name: "bench" });
    await prisma.$disconnect();
    if (EXPLAIN) {
      for (const { name, query } of QUERIES) {
        const parsed = TaskListQuerySchema.parse(Object.fromEntries(new URLSearchParams(query)));
        const { text, values } = listTasksSql(parsed, context, await planRawRead(pool, parsed, context)).toQuery();
        const plan = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
        console.log(`\n── ${name} (${query || "no filter"})\n${plan.rows.map((r) => r["QUERY PLAN"]).join("\n")}`);
        for (const [part, statement] of [
          ["facets", facetCountsSql(parsed, context)],
          ["top repositories", repositoryCountsSql(parsed, context)],
        ] as const) {
          const { text: partText, values: partValues } = statement.toQuery();
          const partPlan = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${partText}`, partValues);
          console.log(
            `\n── ${part}: ${name} (${query || "no filter"})\n${partPlan.rows.map((r) => r["QUERY PLAN"]).join("\n")}`,
          );
        }
      }
    }

    const port = await freePort();
    if (!SQL_ONLY) next = await startNext(port, url);
    const headers = { authorization: `Bearer ${token}` };
    // what any authenticated request costs before the list runs: Next's routing, the bearer-token lookup, JSON
    const floor = SQL_ONLY
      ? null
      : summary(
          await time(async () => {
            const response = await get(`http://127.0.0.1:${port}/api/v1/me`, headers);
            if (response.status !== 200) throw new Error(`/api/v1/me: HTTP ${response.status}`);
          }, SAMPLES),
        );
    // …and of Next alone: the same route refused without a token never reaches the database
    const framework = SQL_ONLY
      ? null
      : summary(
          await time(async () => {
            const response = await get(`http://127.0.0.1:${port}/api/v1/me`);
            if (response.status !== 401) throw new Error(`/api/v1/me without a token: HTTP ${response.status}`);
          }, SAMPLES),
        );
    if (floor && framework) {
      console.log(
        `[bench] floor of an authenticated request (GET /api/v1/me): p50 ${floor.p50.toFixed(1)} ms, p95 ${floor.p95.toFixed(1)} ms`,
      );
      console.log(
        `[bench]   of which Next alone (the same route refused with 401, no database): p50 ${framework.p50.toFixed(1)} ms, p95 ${framework.p95.toFixed(1)} ms`,
      );
    }
    const rows: string[] = [];
    let worstRatio = 0;
    let worstP95 = 0;
    let worstFacets = 0;
    const figures: Figure[] = [];
    const scale = `${TASKS.toLocaleString("en")} tasks`;
    console.log(
      `\n${"query".padEnd(46)} ${"rows".padStart(5)} | API p50     p95 | SQL p50     p95 | p95 ratio | facets p50 p95 | facet SQL p95 | ratio`,
    );
    for (const { name, query } of QUERIES) {
      const parsed = TaskListQuerySchema.parse(Object.fromEntries(new URLSearchParams(query)));
      // the endpoint's statements (lib/tasks/list-tasks.ts planListRead): a search asks the planner's estimates,
      // a "best match" search estimated to have few enough matches counts them (up to the rank limit), then it lists
      const planList = () => planRawRead(pool, parsed, context);
      const plan = await planList();
      const { ranked } = plan;
      const { text, values } = listTasksSql(parsed, context, plan).toQuery();
      const rawList = async () => {
        await planList();
        return pool.query(text, values);
      };
      let count = 0;
      const listApi = async () => {
        const response = await get(`http://127.0.0.1:${port}/api/v1/tasks?${query}`, headers);
        if (response.status !== 200) throw new Error(`${name}: HTTP ${response.status} ${response.body}`);
        count = (JSON.parse(response.body) as { items: unknown[] }).items.length;
      };
      const rawRows = async () => (await rawList()).rows;
      const [apiTimes, rawTimes] = SQL_ONLY
        ? [[NaN], await time(rawRows, SAMPLES)]
        : await timeSideBySide(listApi, rawRows, SAMPLES);
      const api = summary(apiTimes);
      const raw = summary(rawTimes);
      const facets = SQL_ONLY
        ? { p50: NaN, p95: NaN }
        : summary(
            await time(
              async () => {
                const response = await get(`http://127.0.0.1:${port}/api/v1/tasks/facets?${query}`, headers);
                if (response.status !== 200) throw new Error(`${name} facets: HTTP ${response.status}`);
              },
              Math.min(SAMPLES, 20),
            ),
          );
      const facetStatements = [
        facetCountsSql(parsed, context).toQuery(),
        repositoryCountsSql(parsed, context).toQuery(),
      ];
      const facetsRaw = summary(
        await time(() => Promise.all(facetStatements.map((f) => pool.query(f.text, f.values))), Math.min(SAMPLES, 20)),
      );
      const ratio = api.p95 / raw.p95;
      worstRatio = Math.max(worstRatio, ratio);
      worstP95 = Math.max(worstP95, api.p95);
      worstFacets = Math.max(worstFacets, facets.p95);
      rows.push(
        `${(name + (ranked ? " (ranked)" : plan.matchesFirst ? " (matches first)" : "")).padEnd(46)} ${String(count).padStart(5)} | ${fmt(api.p50)} ${fmt(api.p95)} | ${fmt(raw.p50)} ${fmt(raw.p95)} | ${ratio.toFixed(2).padStart(8)}× | ${fmt(facets.p50)} ${fmt(facets.p95)} | ${fmt(facetsRaw.p95)}       | ${(facets.p95 / facetsRaw.p95).toFixed(2).padStart(5)}×`,
      );
      console.log(rows[rows.length - 1]);
      if (!SQL_ONLY) {
        const listTarget = `< 50 ms and ≤ ${RATIO_TARGET}× raw SQL`;
        figures.push(
          {
            figure: `task list at ${scale}, ${name}, p95`,
            measured: api.p95,
            baselineName: "the same SQL raw, p95",
            baseline: raw.p95,
            unit: "ms",
            target: listTarget,
            met: api.p95 < 50 && ratio <= RATIO_TARGET,
          },
          {
            figure: `task facets at ${scale}, ${name}, p95`,
            measured: facets.p95,
            baselineName: "its facet SQL raw, p95",
            baseline: facetsRaw.p95,
            unit: "ms",
            target: "< 100 ms",
            met: facets.p95 < 100,
          },
        );
      }
    }
    if (!SQL_ONLY) {
      // the issue's rows: the list and the facets at their slowest filter (highest p95), each against its own raw SQL
      const slowest = (kind: string) =>
        figures
          .filter((f) => f.figure.startsWith(`${kind} at ${scale}, `))
          .reduce((a, b) => (b.measured > a.measured ? b : a));
      for (const kind of ["task list", "task facets"]) {
        const worst = slowest(kind);
        const filter = worst.figure.slice(`${kind} at ${scale}, `.length, -", p95".length);
        figures.push({ ...worst, figure: `${kind} at ${scale}, worst filter (${filter}), p95` });
      }
      if (MILLION)
        writeBenchResults(
          "browse-1m",
          figures,
          atStart,
          { tasks: TASKS, samples: SAMPLES },
          "npm run bench:browse -- --million",
        );
      else writeBenchResults("browse", figures, atStart, { tasks: TASKS, samples: SAMPLES });
    }
    // --sql-only times no endpoint: its columns are empty and no target can be judged
    if (!SQL_ONLY) {
      console.log(`\nworst list p95 ${worstP95.toFixed(1)} ms (target < 50 ms): ${worstP95 < 50 ? "met" : "NOT met"}`);
      console.log(
        `worst p95 ratio endpoint ÷ raw SQL ${worstRatio.toFixed(2)}× (target ≤ ${RATIO_TARGET}×): ${worstRatio <= RATIO_TARGET ? "met" : "NOT met"}`,
      );
      console.log(
        `worst facets p95 ${worstFacets.toFixed(1)} ms (target < 100 ms): ${worstFacets < 100 ? "met" : "NOT met"}`,
      );
    }
    await pool.end();
  } finally {
    if (next?.pid) {
      try {
        process.kill(-next.pid, "SIGTERM");
      } catch {}
    }
    await server.stop();
    if (!KEPT_DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

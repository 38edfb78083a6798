// npm run bench:search — search across trajectories (searchAllSteps: filters, blind set, joins,
// ts_headline snippets, keyset page) against the raw full-text query on the steps alone, in one run.
//
// Starts an embedded PostgreSQL of its own (random port, temporary data folder), loads 1,000,000
// steps in 1,000 trajectories (five models, three outcomes) with COPY, then for each query of a
// representative set (a rare word, a word in ~1% of steps, two words, a model filter, an outcome
// filter, page 2 by cursor) times, alternating:
//   - ours: searchAllSteps through Prisma, as GET /api/v1/trajectories/search runs it;
//   - raw: the bare statement `SELECT trajectory_id, index … WHERE search_vector @@ q [AND the
//     filter on the joined trajectory] ORDER BY … LIMIT 26` through pg (no outcome expression,
//     blind set or snippets): the least any search over the index does.
// Prints p50/p95 of each and the ratio ours p95 ÷ raw p95 (target ≤ 3×).
// Writes docs/bench-results/search.json (each query's p95 against its raw twin's, and the worst)
// for npm run bench:report.
// Usage: npm run bench:search [-- --steps 1000000 --samples 60]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { ensureDatabaseExists, startEmbeddedPostgres } from "../../lib/database-server/database-server";
import { prepareDatabase } from "../../lib/db/prepare-database";
import { createPrismaClient } from "../../lib/db/client";
import { NOT_BLIND } from "../../lib/auth/blind";
import { CrossSearchQuerySchema, searchAllSteps, stepTsQuery } from "../../lib/trajectories/search-all-steps";
import { freePort } from "../helpers/free-port";
import { machineState, writeBenchResults, type Figure } from "./results";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => Number(args[args.indexOf(`--${name}`) + 1] || 0) || fallback;
const STEPS = option("steps", 1_000_000);
const SAMPLES = option("samples", 60);
const TRAJECTORIES = 1_000;
const PER_TRAJECTORY = Math.ceil(STEPS / TRAJECTORIES);
const MODELS = ["gpt-4o", "claude-3-7-sonnet", "qwen2.5-coder-32b", "deepseek-v3", "llama-3.1-70b"];
const RARE = "zanzibarquux";

// deterministic words of realistic shape (mulberry32)
let seed = 7;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const WORDS =
  "the value error function returns raises list index column frame test fixture expected actual output file path config request response query model field view template cache parser token node tree plugin callback event thread lock timeout encoding bytes string format locale datetime float integer decimal precision rounding".split(
    " ",
  );
const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" ");
// COPY text format: backslash, tab, newline and carriage return escaped
const esc = (v: string) => v.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");

function* stepRows(now: string) {
  for (let t = 0; t < TRAJECTORIES; t++) {
    for (let i = 0; i < PER_TRAJECTORY; i++) {
      const n = t * PER_TRAJECTORY + i;
      // ~1% of steps raise a KeyError; one step in 20,000 holds the rare word
      const error = n % 97 === 0 ? `\nTraceback (most recent call last):\nKeyError: 'column_${n % 13}'` : "";
      const rare = n % 20_011 === 0 ? ` ${RARE}` : "";
      const observation = `${words(24)}${error}${rare}`;
      yield `s${n}\tt${t}\t${i}\t${esc(`Step ${i}: ${words(12)}`)}\t${esc(`python -m pytest tests/test_${WORDS[n % WORDS.length]}.py`)}\t${esc(observation)}\t${now}\n`;
    }
  }
}

async function load(pool: pg.Pool) {
  const client = await pool.connect();
  try {
    const now = new Date().toISOString();
    const copy = (table: string, columns: string[], rows: Iterable<string>) =>
      pipeline(Readable.from(rows), client.query(copyFrom(`COPY ${table} (${columns.join(", ")}) FROM STDIN`)));
    await copy(
      "trajectories",
      ["id", "external_id", "role", "format", "model", "exit_status", "step_count", "updated_at"],
      (function* () {
        for (let t = 0; t < TRAJECTORIES; t++)
          yield `t${t}\tbench-${t}\tSOLVER\tOTHER\t${MODELS[t % MODELS.length]}\t${t % 3 === 0 ? "exit_cost" : "submitted"}\t${PER_TRAJECTORY}\t${now}\n`;
      })(),
    );
    // one GIN build after the load is far faster than a million insertions into it
    await client.query("DROP INDEX trajectory_steps_search_vector_idx");
    await copy(
      "trajectory_steps",
      ["id", "trajectory_id", "index", "thought", "action", "observation", "updated_at"],
      stepRows(now),
    );
    await client.query("SET maintenance_work_mem = '256MB'");
    await client.query(
      'CREATE INDEX trajectory_steps_search_vector_idx ON trajectory_steps USING GIN ("search_vector")',
    );
    await client.query("VACUUM ANALYZE trajectory_steps");
    await client.query("ANALYZE trajectories");
  } finally {
    client.release();
  }
}

// each with its raw twin: the same words (and filter, in its plainest SQL) on the bare tables
const BARE = "SELECT s.trajectory_id, s.index FROM trajectory_steps s";
const QUERIES: { name: string; query: Record<string, string>; raw: string }[] = [
  { name: "rare word", query: { q: RARE }, raw: `${BARE} WHERE s.search_vector @@ to_tsquery('simple', $1)` },
  {
    name: "word in ~1% of steps",
    query: { q: "KeyError" },
    raw: `${BARE} WHERE s.search_vector @@ to_tsquery('simple', $1)`,
  },
  {
    name: "two words",
    query: { q: "KeyError column_3" },
    raw: `${BARE} WHERE s.search_vector @@ to_tsquery('simple', $1)`,
  },
  {
    name: "~1% + model filter",
    query: { q: "KeyError", model: "deepseek-v3" },
    raw: `${BARE} JOIN trajectories tr ON tr.id = s.trajectory_id WHERE s.search_vector @@ to_tsquery('simple', $1) AND tr.model = 'deepseek-v3'`,
  },
  {
    name: "~1% + outcome filter",
    query: { q: "KeyError", verdict: "ERRORED" },
    raw: `${BARE} JOIN trajectories tr ON tr.id = s.trajectory_id WHERE s.search_vector @@ to_tsquery('simple', $1) AND tr.exit_status NOT ILIKE 'submitted%'`,
  },
];

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
const ms = (v: number) => `${v.toFixed(1)} ms`;

async function main() {
  const atStart = machineState();
  const work = mkdtempSync(path.join(tmpdir(), "swe-curator-bench-search-"));
  process.env.EMBEDDED_PG_FSYNC = "off";
  const server = await startEmbeddedPostgres({ dataDir: path.join(work, "pg"), port: await freePort(), quiet: true });
  const url = `${server.baseUrl}/swe_curator_bench`;
  try {
    await ensureDatabaseExists(url);
    await prepareDatabase(url);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on("error", () => {}); // an idle connection closed when the server stops is expected
    let started = performance.now();
    await load(pool);
    console.log(
      `[bench] loaded ${(TRAJECTORIES * PER_TRAJECTORY).toLocaleString()} steps with COPY in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const prisma = createPrismaClient(url, 2);
    // the cursor of page 1 of the ~1% word, for a page-2 query
    const first = await searchAllSteps(prisma, CrossSearchQuerySchema.parse({ q: "KeyError" }), NOT_BLIND);
    const [, after] = JSON.parse(Buffer.from(first.nextCursor!, "base64url").toString("utf8")) as [string, number];
    const last = first.items.at(-1)!;
    QUERIES.push({
      name: "page 2 by cursor",
      query: { q: "KeyError", cursor: first.nextCursor! },
      raw: `${BARE} WHERE s.search_vector @@ to_tsquery('simple', $1) AND (s.trajectory_id, s.index) > ('${last.trajectoryId}', ${after})`,
    });

    const rows: string[][] = [];
    const ratios: number[] = [];
    const figures: Figure[] = [];
    const scale = `${(TRAJECTORIES * PER_TRAJECTORY).toLocaleString("en")} steps`;
    for (const { name, query, raw: rawWhere } of QUERIES) {
      const parsed = CrossSearchQuerySchema.parse(query);
      const rawSql = `${rawWhere} ORDER BY s.trajectory_id, s.index LIMIT ${parsed.limit + 1}`;
      const ours: number[] = [];
      const raw: number[] = [];
      let hits = 0;
      for (let i = 0; i < SAMPLES; i++) {
        started = performance.now();
        hits = (await searchAllSteps(prisma, parsed, NOT_BLIND)).items.length;
        ours.push(performance.now() - started);
        started = performance.now();
        await pool.query(rawSql, [stepTsQuery(parsed.q)]);
        raw.push(performance.now() - started);
      }
      const ratio = percentile(ours, 95) / percentile(raw, 95);
      ratios.push(ratio);
      figures.push({
        figure: `search across ${scale}, ${name}, p95`,
        measured: percentile(ours, 95),
        baselineName: "the bare index query raw, p95",
        baseline: percentile(raw, 95),
        unit: "ms",
        target: "≤ 3× raw",
        met: ratio <= 3,
      });
      rows.push([
        name,
        String(hits),
        ms(percentile(ours, 50)),
        ms(percentile(ours, 95)),
        ms(percentile(raw, 50)),
        ms(percentile(raw, 95)),
        `${ratio.toFixed(2)}×`,
      ]);
    }
    console.log(
      `\n[bench] search across ${(TRAJECTORIES * PER_TRAJECTORY).toLocaleString()} steps, ${SAMPLES} samples each (ours = searchAllSteps, raw = the bare index query)`,
    );
    console.table(
      rows.map(([query, hits, o50, o95, r50, r95, ratio]) => ({
        query,
        hits,
        "ours p50": o50,
        "ours p95": o95,
        "raw p50": r50,
        "raw p95": r95,
        "p95 ratio": ratio,
      })),
    );
    const worst = Math.max(...ratios);
    // the issue's row: the query furthest from its raw twin
    const worstFigure = figures[ratios.indexOf(worst)];
    figures.push({
      ...worstFigure,
      figure: `search across ${scale}, worst query (${QUERIES[ratios.indexOf(worst)].name}), p95`,
    });
    console.log(
      `[bench] worst p95 ratio ours ÷ raw: ${worst.toFixed(2)}× (target ≤ 3×)${worst > 3 ? " — over target" : ""}`,
    );
    writeBenchResults("search", figures, atStart, { steps: TRAJECTORIES * PER_TRAJECTORY, samples: SAMPLES });
    await prisma.$disconnect();
    await pool.end();
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();

// npm run bench:import — our importer against a raw Postgres COPY of the same rows, in one run.
//
// Generates N SWE-bench-like instances (JSONL, realistic field sizes), starts an embedded
// PostgreSQL on a random port with a temporary data folder, then:
//   1. imports the file with importFile() into a migrated database (what `swe-curator import` does);
//   2. re-imports it (every record unchanged: the idempotency pass);
//   3. loads the same rows (repositories, environments, revisions, tasks) into a second
//      migrated database with COPY FROM STDIN, after the same one pass over the JSONL.
// Prints records/s, MB/s, our time ÷ COPY time (target ≤ 3×), peak RSS (target < 400 MB), and
// the CPU time each load cost (Node + PostgreSQL), which a machine busy with other work skews less.
// Usage: npm run bench:import [-- --records 50000]
//        npm run bench:import -- --size-mb 1024                     (the 1 GB JSONL case)
//        npm run bench:import -- --format parquet --size-mb 500     (the 500 MB Parquet case)
// --size-mb generates rows until the imported file reaches that size. For Parquet (Hugging Face
// layout, snappy, row groups of 2,000 rows) the COPY baseline loads the same rows from JSONL.

import { randomBytes, randomUUID } from "node:crypto";
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { once } from "node:events";
import { pipeline } from "node:stream/promises";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { startEmbeddedPostgres } from "../../lib/database-server/database-server";
import { prepareDatabase } from "../../lib/db/prepare-database";
import { createPrismaClient } from "../../lib/db/client";
import { ParquetWriter, fileWriter } from "hyparquet-writer";
import { importFile } from "../../lib/imports/import-file";
import { placeholderRecipe, PLACEHOLDER_REASON } from "../../lib/imports/write/placeholder-recipe";
import { freePort } from "../helpers/free-port";

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const SIZE_BYTES = Number(option("--size-mb") ?? 0) * 1024 * 1024;
const FORMAT = option("--format") === "parquet" ? "parquet" : "jsonl";
/** with --size-mb, the count is found while generating and handed from the setup process in a file */
let RECORDS = Number(option("--records") ?? 0) || 50_000;
const REPOS = 60;
const PARQUET_GROUP_ROWS = 2_000;

// ── a deterministic generator of SWE-bench-sized rows ──
// mulberry32: 32-bit integer steps (Math.imul), so the sequence does not fall into a short cycle as
// a floating-point LCG does — text that repeated would compress far better than real issues and patches
let seed = 42;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const between = (min: number, max: number) => Math.floor(min + rand() * (max - min));
const WORDS =
  "the a function returns raises value error when list empty index column frame series test should fix bug issue expected actual traceback module import call argument default parameter type".split(
    " ",
  );
const prose = (chars: number) => {
  const out: string[] = [];
  let length = 0;
  while (length < chars) {
    const word = WORDS[between(0, WORDS.length)];
    out.push(word);
    length += word.length + 1;
  }
  return out.join(" ");
};
const hex = (n: number) => randomBytes(n / 2).toString("hex");
const diff = (file: string, lines: number) =>
  [
    `diff --git a/${file} b/${file}`,
    `index ${hex(8)}..${hex(8)} 100644`,
    `--- a/${file}`,
    `+++ b/${file}`,
    `@@ -${between(1, 400)},${lines} +${between(1, 400)},${lines} @@`,
  ]
    .concat(
      Array.from(
        { length: lines },
        (_, i) => `${i % 3 === 0 ? "-" : i % 3 === 1 ? "+" : " "}    ${prose(between(20, 70))}`,
      ),
    )
    .join("\n") + "\n";

function makeRow(i: number) {
  const r = i % REPOS;
  const repo = `owner${r}/project${r}`;
  const testFile = `tests/test_module_${between(0, 40)}.py`;
  return {
    repo,
    instance_id: `owner${r}__project${r}-${10_000 + i}`,
    base_commit: hex(40),
    patch: diff(`src/project${r}/module_${between(0, 40)}.py`, between(12, 60)),
    test_patch: diff(testFile, between(15, 60)),
    problem_statement: `## ${prose(60)}\n\n${prose(between(600, 3500))}\n\n\`\`\`python\n${prose(between(100, 500))}\n\`\`\``,
    hints_text: rand() < 0.5 ? "" : prose(between(50, 1500)),
    created_at: new Date(Date.UTC(2018, 0, 1) + between(0, 2_000) * 86_400_000).toISOString(),
    version: `${between(0, 5)}.${between(0, 20)}`,
    environment_setup_commit: hex(40),
    // the Hugging Face export's JSON-encoded lists
    FAIL_TO_PASS: JSON.stringify(
      Array.from(
        { length: between(1, 6) },
        (_, k) => `${testFile}::TestCase${k}::test_${prose(25).replace(/ /g, "_")}`,
      ),
    ),
    PASS_TO_PASS: JSON.stringify(
      Array.from(
        { length: between(0, 80) },
        (_, k) => `${testFile}::TestOther::test_${k}_${prose(20).replace(/ /g, "_")}`,
      ),
    ),
  };
}

/** Writes the JSONL (and, for the Parquet case, the same rows as Parquet); returns how many rows. */
async function generate(jsonlFile: string, parquetFile: string | null) {
  const out = createWriteStream(jsonlFile);
  const parquet = parquetFile ? new ParquetWriter({ writer: fileWriter(parquetFile), schema: PARQUET_SCHEMA }) : null;
  const sizeOf = () =>
    parquet ? (parquet.writer as unknown as { offset: number }).offset : out.bytesWritten + out.writableLength;
  let group: ReturnType<typeof makeRow>[] = [];
  let i = 0;
  for (; SIZE_BYTES ? sizeOf() < SIZE_BYTES : i < RECORDS; i++) {
    const row = makeRow(i);
    if (!out.write(JSON.stringify(row) + "\n")) await once(out, "drain");
    if (parquet) group.push(row);
    if (parquet && group.length === PARQUET_GROUP_ROWS) {
      await parquet.write({
        columnData: PARQUET_COLUMNS.map((name) => ({ name, data: group.map((r) => r[name]) })),
        rowGroupSize: PARQUET_GROUP_ROWS,
      });
      group = [];
    }
  }
  if (parquet && group.length)
    await parquet.write({
      columnData: PARQUET_COLUMNS.map((name) => ({ name, data: group.map((r) => r[name]) })),
      rowGroupSize: PARQUET_GROUP_ROWS,
    });
  parquet?.finish();
  out.end();
  await once(out, "finish");
  return i;
}

const PARQUET_COLUMNS = Object.keys(makeRow(0)) as (keyof ReturnType<typeof makeRow>)[];
const PARQUET_SCHEMA = [
  { name: "root", num_children: PARQUET_COLUMNS.length },
  ...PARQUET_COLUMNS.map((name) => ({
    name,
    type: "BYTE_ARRAY" as const,
    converted_type: "UTF8" as const,
    repetition_type: "OPTIONAL" as const,
  })),
];

// ── the COPY baseline ──
const copyText = (value: unknown): string => {
  if (value === null || value === undefined) return "\\N";
  const text = typeof value === "string" ? value : value instanceof Date ? value.toISOString() : JSON.stringify(value);
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");
};
const pgArray = (items: string[]) =>
  `{${items.map((s) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(",")}}`;

/** The same normalisation as the importer, without validation: the least a loader must do. */
function rawRecord(row: Record<string, string>) {
  const [owner, name] = row.repo.split("/");
  const record = {
    instanceId: row.instance_id,
    repository: { owner, name, url: `https://github.com/${row.repo}` },
    environment: {
      key: `${owner}__${name}@${row.base_commit}`,
      baseCommit: row.base_commit,
      setupCommit: row.environment_setup_commit,
      version: row.version,
      source: "SWE_BENCH" as const,
      recipe: null,
      metadata: null,
    },
    task: {
      kind: "ISSUE_FIX" as const,
      source: "SWE_BENCH" as const,
      difficulty: null,
      problemStatement: row.problem_statement,
      hintsText: row.hints_text,
      fixPatch: row.patch,
      testPatch: row.test_patch,
      failToPass: JSON.parse(row.FAIL_TO_PASS) as string[],
      passToPass: JSON.parse(row.PASS_TO_PASS) as string[],
      issueCreatedAt: new Date(row.created_at),
      metadata: null,
    },
  };
  return record;
}

/** Loads the rows with COPY; returns its time, leaving out the removal of its scratch files. */
async function copyBaseline(file: string, url: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-copy-"));
  try {
    return await copyInto(file, url, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function copyInto(file: string, url: string, dir: string) {
  const started = performance.now();
  const tables = {
    repositories: {
      columns: ["id", "owner", "name", "url", "updated_at"],
      out: createWriteStream(path.join(dir, "repositories.tsv")),
    },
    environments: {
      columns: [
        "id",
        "key",
        "repository_id",
        "base_commit",
        "setup_commit",
        "version",
        "source",
        "metadata",
        "updated_at",
      ],
      out: createWriteStream(path.join(dir, "environments.tsv")),
    },
    environment_revisions: {
      columns: ["id", "environment_id", "number", "dockerfile", "eval_script", "reason", "updated_at"],
      out: createWriteStream(path.join(dir, "environment_revisions.tsv")),
    },
    tasks: {
      columns: [
        "id",
        "instance_id",
        "environment_id",
        "kind",
        "source",
        "problem_statement",
        "hints_text",
        "fix_patch",
        "test_patch",
        "fail_to_pass",
        "pass_to_pass",
        "issue_created_at",
        "updated_at",
      ],
      out: createWriteStream(path.join(dir, "tasks.tsv")),
    },
  };
  // rows are gathered per table and written in large chunks, so the baseline is not slowed by stream backpressure
  const pending: Record<string, string[]> = {
    repositories: [],
    environments: [],
    environment_revisions: [],
    tasks: [],
  };
  const flush = async (table: keyof typeof tables) => {
    const chunk = pending[table].join("");
    pending[table] = [];
    if (chunk && !tables[table].out.write(chunk)) await once(tables[table].out, "drain");
  };
  const write = async (table: keyof typeof tables, values: unknown[]) => {
    pending[table].push(values.map(copyText).join("\t") + "\n");
    if (pending[table].length >= 500) await flush(table);
  };
  const repoIds = new Map<string, string>();
  const now = new Date();
  // the same one pass over the file as the importer: parse, validate, normalise
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!line) continue;
    const record = rawRecord(JSON.parse(line));
    const repoKey = `${record.repository.owner}/${record.repository.name}`;
    let repositoryId = repoIds.get(repoKey);
    if (!repositoryId) {
      repositoryId = randomUUID();
      repoIds.set(repoKey, repositoryId);
      await write("repositories", [
        repositoryId,
        record.repository.owner,
        record.repository.name,
        record.repository.url,
        now,
      ]);
    }
    const environmentId = randomUUID();
    const recipe = placeholderRecipe(record);
    await write("environments", [
      environmentId,
      record.environment.key,
      repositoryId,
      record.environment.baseCommit,
      record.environment.setupCommit,
      record.environment.version,
      record.environment.source,
      { placeholderRecipe: true },
      now,
    ]);
    await write("environment_revisions", [
      randomUUID(),
      environmentId,
      1,
      recipe.dockerfile,
      recipe.evalScript,
      PLACEHOLDER_REASON,
      now,
    ]);
    const t = record.task;
    await write("tasks", [
      randomUUID(),
      record.instanceId,
      environmentId,
      t.kind,
      t.source,
      t.problemStatement,
      t.hintsText,
      t.fixPatch,
      t.testPatch,
      pgArray(t.failToPass),
      pgArray(t.passToPass),
      t.issueCreatedAt,
      now,
    ]);
  }
  for (const [table, { out }] of Object.entries(tables)) {
    await flush(table as keyof typeof tables);
    out.end();
    await once(out, "finish");
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("begin");
    for (const [table, { columns }] of Object.entries(tables)) {
      const sink = client.query(copyFrom(`copy ${table} (${columns.join(", ")}) from stdin`));
      await pipeline(createReadStream(path.join(dir, `${table}.tsv`)), sink);
    }
    await client.query(
      "update environments e set current_revision_id = r.id from environment_revisions r where r.environment_id = e.id",
    );
    await client.query("commit");
  } finally {
    await client.end();
  }
  return performance.now() - started;
}

async function createDatabase(baseUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: `${baseUrl}/postgres` });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = `${baseUrl}/${name}`;
  await prepareDatabase(url);
  return url;
}

function watchRss() {
  let peak = 0;
  // memoryUsage.rss() reads one number; memoryUsage() walks the heap spaces, a cost the import would pay
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 25);
  return { stop: () => (clearInterval(timer), Math.max(peak, process.memoryUsage.rss())) };
}

/** Waits (up to 10 minutes) until no autovacuum worker runs on the server. */
async function autovacuumQuiet(baseUrl: string) {
  const client = new pg.Client({ connectionString: `${baseUrl}/postgres` });
  await client.connect();
  try {
    for (const deadline = Date.now() + 600_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 1000))) {
      const { rows } = await client.query(
        "select count(*)::int as n from pg_stat_activity where backend_type = 'autovacuum worker'",
      );
      if (rows[0].n === 0) return;
    }
  } finally {
    await client.end();
  }
}

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU seconds used so far by this process and by the PostgreSQL server (its postmaster, its
 * live processes, and — counted in the postmaster's cutime/cstime — those that have exited).
 * On a machine shared with other work, CPU time says what a load costs where wall time also
 * counts the wait for a core.
 */
function cpuSeconds(dataDir: string) {
  const ticks = (pid: string, withChildren: boolean) => {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // after "pid (comm) ": state=0 ppid=1 … utime=11 stime=12 cutime=13 cstime=14
    return Number(fields[11]) + Number(fields[12]) + (withChildren ? Number(fields[13]) + Number(fields[14]) : 0);
  };
  const postmaster = readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0].trim();
  let total = ticks(postmaster, true);
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid) || pid === postmaster) continue;
    try {
      if (readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1] === postmaster)
        total += ticks(pid, false);
    } catch {
      // the process ended while we looked
    }
  }
  const own = process.cpuUsage();
  return { node: (own.user + own.system) / 1e6, postgres: total / CLOCK_TICKS_PER_SECOND };
}

/** CPU seconds spent while `work` ran, by this process and by the database server. */
async function measureCpu<T>(dataDir: string, work: () => Promise<T>) {
  const before = cpuSeconds(dataDir);
  const result = await work();
  const after = cpuSeconds(dataDir);
  return { result, node: after.node - before.node, postgres: after.postgres - before.postgres };
}

const mb = (bytes: number) => bytes / 1024 / 1024;

/**
 * Generating the file and migrating the databases (Prisma's wasm schema engine) run in a
 * child process, so the peak RSS measured here is the importer's alone, as in the CLI.
 */
async function setup(baseUrl: string, file: string) {
  const rows = await generate(file, FORMAT === "parquet" ? file.replace(/\.jsonl$/, ".parquet") : null);
  writeFileSync(`${file}.rows`, String(rows));
  await createDatabase(baseUrl, "bench_ours");
  await createDatabase(baseUrl, "bench_copy");
}

function runSetupChild(baseUrl: string, file: string) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...process.execArgv,
        fileURLToPath(import.meta.url),
        "--setup",
        baseUrl,
        file,
        ...args.filter((a) => a !== "--setup"),
      ],
      { stdio: "inherit" },
    );
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the setup process exited with ${code}`))));
  });
}

async function main() {
  const work = mkdtempSync(path.join(tmpdir(), "bench-import-"));
  const file = path.join(work, "instances.jsonl");
  process.env.EMBEDDED_PG_FSYNC = process.env.EMBEDDED_PG_FSYNC ?? "off";
  const server = await startEmbeddedPostgres({ dataDir: path.join(work, "pg"), port: await freePort(), quiet: true });
  try {
    const wanted = SIZE_BYTES
      ? `${mb(SIZE_BYTES).toFixed(0)} MB of ${FORMAT}`
      : `${RECORDS.toLocaleString()} records as ${FORMAT}`;
    console.log(
      `[bench] generating ${wanted} of SWE-bench-like records and migrating two databases (in a child process)…`,
    );
    await runSetupChild(server.baseUrl, file);
    RECORDS = Number(readFileSync(`${file}.rows`, "utf8"));
    const imported = FORMAT === "parquet" ? file.replace(/\.jsonl$/, ".parquet") : file;
    const size = statSync(imported).size;
    console.log(
      `[bench] ${RECORDS.toLocaleString()} records: ${mb(size).toFixed(1)} MB of ${FORMAT} (${(size / RECORDS / 1024).toFixed(1)} KB per record)`,
    );
    const oursUrl = `${server.baseUrl}/bench_ours`;
    const copyUrl = `${server.baseUrl}/bench_copy`;
    const db = createPrismaClient(oursUrl, 5);
    console.log(`[bench] RSS before the import: ${mb(process.memoryUsage().rss).toFixed(0)} MB`);

    const pgData = path.join(work, "pg");
    const rss = watchRss();
    let started = performance.now();
    const oursCpu = await measureCpu(pgData, () => importFile(db, imported));
    const batch = oursCpu.result;
    const ours = performance.now() - started;
    const peakRss = rss.stop();
    if (batch.created !== RECORDS || batch.failed)
      throw new Error(
        `the import did not create every record: ${JSON.stringify({ ...batch, errors: undefined, bytesRead: undefined, bytesTotal: undefined })}`,
      );

    started = performance.now();
    const again = await importFile(db, imported);
    const reimport = performance.now() - started;
    if (again.unchanged !== RECORDS)
      throw new Error(`the re-import changed something: ${again.created} created, ${again.updated} updated`);
    await db.$disconnect();

    // autovacuum still working through what our import wrote would run beside COPY and be counted to it
    await autovacuumQuiet(server.baseUrl);
    const copyCpu = await measureCpu(pgData, () => copyBaseline(file, copyUrl));
    const copy = copyCpu.result;
    const check = new pg.Client({ connectionString: copyUrl });
    await check.connect();
    const copied = Number((await check.query("select count(*) from tasks")).rows[0].count);
    await check.end();
    if (copied !== RECORDS) throw new Error(`COPY loaded ${copied} tasks`);

    const line = (label: string, ms: number) =>
      `${label.padEnd(28)} ${(ms / 1000).toFixed(2).padStart(7)} s   ${Math.round(RECORDS / (ms / 1000))
        .toLocaleString()
        .padStart(8)} records/s   ${(mb(size) / (ms / 1000)).toFixed(1).padStart(6)} MB/s`;
    console.log("");
    console.log(line(`importFile ${FORMAT} (first)`, ours));
    console.log(line(`importFile ${FORMAT} (re-import)`, reimport));
    console.log(line("raw COPY FROM STDIN", copy));
    console.log("");
    console.log(`ours ÷ COPY                  ${(ours / copy).toFixed(2)}×   (target ≤ 3×)`);
    const cpu = (c: { node: number; postgres: number }) =>
      `${(c.node + c.postgres).toFixed(1)} s (Node ${c.node.toFixed(1)} s + PostgreSQL ${c.postgres.toFixed(1)} s)`;
    console.log(
      `CPU time                     ours ${cpu(oursCpu)}, COPY ${cpu(copyCpu)}: ${((oursCpu.node + oursCpu.postgres) / (copyCpu.node + copyCpu.postgres)).toFixed(2)}×`,
    );
    const heapFlag = (process.env.NODE_OPTIONS ?? "").match(/--max-old-space-size=\d+/)?.[0] ?? "no heap cap";
    console.log(
      `peak RSS during the import   ${mb(peakRss).toFixed(0)} MB   (target < 400 MB; whole process, Node + Prisma included, ${heapFlag} as the CLI runs it)`,
    );
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

if (args.includes("--setup")) {
  const at = args.indexOf("--setup");
  setup(args[at + 1], args[at + 2]).then(
    () => process.exit(0),
    (error) => {
      console.error("[bench] setup failed:", error);
      process.exit(1);
    },
  );
} else {
  main().catch((error) => {
    console.error("[bench] failed:", error);
    process.exit(1);
  });
}

import { readFile, readdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";

// Prisma's CLI downloads a native schema engine from a CDN before migrating, which an
// air-gapped machine cannot reach. The same engine ships on npm as wasm; its package
// entry imports a .wasm file as an ES module, which Node rejects, so it is wired by hand.

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");
export const SCHEMA_PATH = path.join(PROJECT_ROOT, "prisma/schema.prisma");
export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, "prisma/migrations");

type Engine = {
  diff(params: unknown): Promise<{ exitCode: number; stdout: string | null }>;
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>;
  free(): void;
};

let wasmReady: Promise<{ SchemaEngine: { new (...a: unknown[]): Promise<Engine> } }> | undefined;

async function loadWasmEngine() {
  // the engine reports a Rust panic's message through this global before throwing
  const registry = globalThis as unknown as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(m: string): void } };
  registry.PRISMA_WASM_PANIC_REGISTRY ??= {
    set_message: (message) => console.error(`[schema-engine] panic: ${message}`),
  };
  const require = createRequire(import.meta.url);
  const bgPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const bg = (await import("@prisma/schema-engine-wasm/schema_engine_bg")) as Record<string, unknown> & {
    __wbg_set_wasm(exports: WebAssembly.Exports): void;
    SchemaEngine: { new: (...a: unknown[]) => Promise<Engine> };
  };
  const wasmBytes = await readFile(path.join(path.dirname(bgPath), "schema_engine_bg.wasm"));
  const { instance } = await WebAssembly.instantiate(wasmBytes, {
    "./schema_engine_bg.js": bg as WebAssembly.ModuleImports,
  });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return { SchemaEngine: { new: bg.SchemaEngine.new } } as unknown as {
    SchemaEngine: { new (...a: unknown[]): Promise<Engine> };
  };
}

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;
let charPatched = false;
const charColumnNames = new Set<string>();
const COLUMN_TYPE_TEXT = 7;
const COLUMN_TYPE_CHARACTER = 6;

type ResultSet = { columnNames: string[]; columnTypes: number[] };
type Queryable = {
  queryRaw(q: unknown): Promise<ResultSet>;
  startTransaction?: (...a: unknown[]) => Promise<Queryable>;
};
type ScriptRunner = { client: pg.Pool; onError(error: unknown): never; executeScript(script: string): Promise<void> };

// @prisma/adapter-pg runs a migration by splitting it at every ";", also inside comments and
// $$-quoted function bodies, so a migration that defines a trigger function cannot apply.
// Postgres takes the whole script as one simple query (one implicit transaction), which is
// how the native engine sends it.
function runScriptsWhole<T extends Queryable>(queryable: T): T {
  const runner = queryable as unknown as ScriptRunner;
  runner.executeScript = async (script) => {
    try {
      await runner.client.query(script);
    } catch (error) {
      runner.onError(error);
    }
  };
  return queryable;
}

/** Gives back to the engine the "char" type that the pg patch reported as text. */
function restoreCharTypes<T extends Queryable>(queryable: T): T {
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (query) => {
    const result = await queryRaw(query);
    result.columnTypes = result.columnTypes.map((type, i) =>
      type === COLUMN_TYPE_TEXT && charColumnNames.has(result.columnNames[i]) ? COLUMN_TYPE_CHARACTER : type,
    );
    return result;
  };
  if (queryable.startTransaction) {
    const start = queryable.startTransaction.bind(queryable);
    queryable.startTransaction = async (...args) => restoreCharTypes(await start(...args));
  }
  return queryable;
}

function charAwareAdapterFactory(pool: pg.Pool) {
  const factory = new PrismaPg(pool) as unknown as {
    connect(): Promise<Queryable>;
    connectToShadowDb(): Promise<Queryable>;
  };
  const connect = factory.connect.bind(factory);
  const connectToShadowDb = factory.connectToShadowDb.bind(factory);
  factory.connect = async () => runScriptsWhole(restoreCharTypes(await connect()));
  factory.connectToShadowDb = async () => runScriptsWhole(restoreCharTypes(await connectToShadowDb()));
  return factory as unknown as PrismaPg;
}

// The engine describes a database through catalog columns of Postgres's one-byte "char"
// type (pg_class.relkind, …), which @prisma/adapter-pg rejects as unsupported. Its values
// arrive as one-letter strings, so reporting the column as text is exact. Only the
// migration commands load this module; the app's query path never sees the patch.
function reportCharColumnsAsText() {
  if (charPatched) return;
  charPatched = true;
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  const retype = (res: pg.QueryResult | undefined) => {
    for (const field of res?.fields ?? []) {
      if (field.dataTypeID !== PG_CHAR_OID) continue;
      field.dataTypeID = PG_TEXT_OID;
      charColumnNames.add(field.name);
    }
    return res;
  };
  pg.Client.prototype.query = function patchedQuery(this: pg.Client, ...args: unknown[]) {
    // pg.Pool calls client.query with a callback; direct callers await a promise
    const last = args.length - 1;
    if (typeof args[last] === "function") {
      const callback = args[last] as (err: unknown, res?: pg.QueryResult) => void;
      args[last] = (err: unknown, res?: pg.QueryResult) => callback(err, retype(res));
    }
    const result = original.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === "function") {
      return (result as Promise<pg.QueryResult>).then(retype);
    }
    return result;
  } as typeof pg.Client.prototype.query;
}

export async function withSchemaEngine<T>(
  connectionString: string,
  fn: (engine: Engine, schemaText: string) => Promise<T>,
): Promise<T> {
  reportCharColumnsAsText();
  wasmReady ??= loadWasmEngine();
  const { SchemaEngine } = await wasmReady;
  const schemaText = await readFile(SCHEMA_PATH, "utf8");
  // our own pool, so that every connection is closed when we are done (engine.free() leaves them open)
  const pool = new pg.Pool({ connectionString, max: 2 });
  const adapter = bindMigrationAwareSqlAdapterFactory(charAwareAdapterFactory(pool));
  const logs: string[] = [];
  const engine = await (SchemaEngine as unknown as { new: (...a: unknown[]) => Promise<Engine> }).new(
    { datamodels: [[SCHEMA_PATH, schemaText]] },
    (line: string) => logs.push(line),
    adapter,
  );
  try {
    return await fn(engine, schemaText);
  } finally {
    engine.free();
    await pool.end();
  }
}

export async function loadMigrationsList() {
  const dirs = existsSync(MIGRATIONS_DIR)
    ? (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const migrationDirectories = await Promise.all(
    dirs.map(async (dir) => ({
      path: dir,
      migrationFile: {
        path: "migration.sql",
        content: { tag: "ok", value: await readFile(path.join(MIGRATIONS_DIR, dir, "migration.sql"), "utf8") },
      },
    })),
  );
  const lockPath = path.join(MIGRATIONS_DIR, "migration_lock.toml");
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: "migration_lock.toml", content: existsSync(lockPath) ? await readFile(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

export const NO_FILTER = { externalTables: [], externalEnums: [] };

/** Runs fn against a throwaway database on the same server, dropped afterwards. */
async function withScratchDatabase<T>(connectionString: string, fn: (url: string) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString });
  await admin.connect();
  const name = `swe_curator_scratch_${process.pid}_${Date.now()}`;
  await admin.query(`create database "${name}"`);
  try {
    const url = new URL(connectionString);
    url.pathname = `/${name}`;
    return await fn(url.toString());
  } finally {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

/**
 * SQL that takes the database described by the committed migrations to schema.prisma
 * ("" when in sync). The wasm engine replays the migrations on the database it is connected
 * to (it has no separate shadow database), so it is given a scratch one.
 */
export async function diffMigrationsToSchema(connectionString: string): Promise<string> {
  return withScratchDatabase(connectionString, (scratchUrl) =>
    withSchemaEngine(scratchUrl, async (engine, schemaText) => {
      const migrationsList = await loadMigrationsList();
      const from = migrationsList.migrationDirectories.length
        ? { tag: "migrations", ...migrationsList }
        : { tag: "empty" };
      const result = await engine.diff({
        from,
        to: { tag: "schemaDatamodel", files: [{ path: SCHEMA_PATH, content: schemaText }] },
        script: true,
        exitCode: null,
        shadowDatabaseUrl: null,
        filters: NO_FILTER,
      });
      const sql = (result.stdout ?? "").trim();
      return sql === "-- This is an empty migration." ? "" : sql;
    }),
  );
}

/** Applies pending migrations, recording them in _prisma_migrations as `prisma migrate deploy` does. */
export async function applyPendingMigrations(connectionString: string): Promise<string[]> {
  return withSchemaEngine(connectionString, async (engine) => {
    const result = await engine.applyMigrations({ migrationsList: await loadMigrationsList(), filters: NO_FILTER });
    return result.appliedMigrationNames;
  });
}

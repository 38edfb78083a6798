import type { Db, PrismaClient } from "../db/client";
import { logFailure } from "../errors/log-failure";

// The analytics pages read one fact row per item (a review, a generated test, a step) from
// joins over six tables, then count in code. Profiled (EXPLAIN ANALYZE, --cpu-prof) at
// 100,000 tasks, those reads were most of each page: the joins hash every task twice and
// sort every control run, on every request, though the facts change only when someone writes.
// So each page's facts stay in memory with the snapshot they were read in; triggers
// (migration 20261206070000_analytics_changes) record every transaction that writes to those
// tables, and a read reuses the facts when no such transaction committed since that snapshot.
// The check is one statement; a re-read runs in a REPEATABLE READ transaction whose first
// statement takes the snapshot the facts are then stored with: what a reader gets is exactly
// what a snapshot taken during its request holds, never older.

type Entry = { snapshot: string; generation: string; facts: unknown };

/** Facts per database client (tests and benches hold several) and per page. */
const cache = new WeakMap<object, Map<string, Entry>>();

/** Past this many recorded transactions a read empties the record (in the background). */
export const FOLD_AT_CHANGES = 10_000;

type Check = { snapshot: string; generation: string; changed: boolean; changes: number };

/**
 * This transaction's snapshot, the generation, and whether a transaction that the cached
 * snapshot did not see has committed since (only transactions from its xmin on need a look).
 */
const CHECK_SQL = `
  SELECT pg_current_snapshot()::text AS snapshot,
         (SELECT generation FROM analytics_generation WHERE id = 1)::text AS generation,
         $1::text IS NOT NULL AND EXISTS (
           SELECT 1 FROM analytics_changes
           WHERE txid >= pg_snapshot_xmin($1::pg_snapshot)::text::bigint
             AND NOT pg_visible_in_snapshot(txid::text::xid8, $1::pg_snapshot)) AS changed,
         (SELECT count(*)::int FROM (SELECT 1 FROM analytics_changes LIMIT ${FOLD_AT_CHANGES + 1}) c) AS changes`;

// by property, not `in`: the process-wide client is a Proxy that answers only `get`
const isClient = (db: Db): db is PrismaClient => typeof (db as { $transaction?: unknown }).$transaction === "function";

/**
 * The facts `read` returns, read again only when a write committed since they were read.
 * Callers must not change the facts (they are shared by every request). Inside a caller's
 * transaction there is no snapshot of our own to check against, so the facts are read there.
 */
export async function cachedFacts<T>(db: Db, page: string, read: (db: Db) => Promise<T>): Promise<T> {
  if (!isClient(db)) return read(db);
  const pages = cache.get(db) ?? new Map<string, Entry>();
  cache.set(db, pages);
  // the usual case in one statement, outside a transaction: its snapshot shows nothing new, so the facts are current
  const held = pages.get(page);
  if (held) {
    const [check] = await db.$queryRawUnsafe<Check[]>(CHECK_SQL, held.snapshot);
    foldIfMany(db, check.changes);
    if (held.generation === check.generation && !check.changed) return held.facts as T;
  }
  const { facts, changes } = await db.$transaction(
    async (tx) => {
      const [check] = await tx.$queryRawUnsafe<Check[]>(CHECK_SQL, null);
      const fresh = await read(tx);
      pages.set(page, { snapshot: check.snapshot, generation: check.generation, facts: fresh });
      return { facts: fresh, changes: check.changes };
    },
    { isolationLevel: "RepeatableRead", timeout: 120_000 },
  );
  foldIfMany(db, changes);
  return facts;
}

function foldIfMany(db: Db, changes: number) {
  if (changes > FOLD_AT_CHANGES)
    void foldAnalyticsChanges(db).catch(logFailure("emptying the analytics change record"));
}

/**
 * Empties the change record and bumps the generation in the same statement, so facts cached
 * against a snapshot the deleted rows spoke for are read again. Rows committed after this
 * statement's snapshot stay.
 */
export async function foldAnalyticsChanges(db: Db): Promise<void> {
  await db.$executeRawUnsafe(`
    WITH bumped AS (UPDATE analytics_generation SET generation = generation + 1 WHERE id = 1 RETURNING 1)
    DELETE FROM analytics_changes WHERE EXISTS (SELECT 1 FROM bumped)`);
}

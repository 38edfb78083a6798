import type { Db, PrismaClient } from "../db/client";
import { logFailure } from "../errors/log-failure";

// The analytics pages read one fact row per item (a review, a generated test, a step) from
// joins over six tables, then count in code. Profiled (EXPLAIN ANALYZE, --cpu-prof) at
// 100,000 tasks, those reads were most of each page: the joins hash every task twice and
// sort every control run, on every request, though the facts change only when someone writes.
// So each page's facts stay in memory with the snapshot they were read in, and triggers
// (migration 20261206110000_analytics_row_changes) record, per writing transaction, the keys it
// changed (a task, an environment, a candidate …). After a write only the facts of the tasks
// those keys reach are read again: at 100,000 tasks a full read of the reviews took 435 ms,
// the reviews of 30 changed tasks 2 ms (EXPLAIN ANALYZE, npm run bench:analytics -- --explain).
//
// A read first asks, in one statement, whether a transaction its snapshot did not see has
// recorded a change; when none has, the facts are current. Otherwise it folds: in one
// REPEATABLE READ transaction it reads the keys those transactions recorded, follows them to
// the tasks whose facts they reach, reads the facts of those tasks only, and puts them in place
// of the kept ones. The new facts are then exactly a full read in that transaction's snapshot.
//
// Why transaction ids and snapshots rather than updated_at or a sequence: a row is visible to a
// reader when its transaction COMMITTED before the reader's snapshot, and commit order is not the
// order of updated_at (taken at the statement) nor of a sequence (taken when the row is written).
// A long transaction that wrote before our last read and commits after it would be missed by a
// "greater than the last mark" test. pg_visible_in_snapshot(txid, the facts' snapshot) is false
// for exactly the transactions the facts did not see, whenever they started; each process keeps
// its own snapshot, so several app processes and workers need nothing shared but the table.

/** Where a page's facts come from, and how they are kept in order when folded. */
export type FactSource<T> = {
  /** the facts' name in the cache */
  name: string;
  /** every fact (no `tasks`), or the facts of these tasks only, in `order` */
  read: (db: Db, tasks?: string[]) => Promise<T[]>;
  /** the task a fact belongs to: a changed task's facts are replaced as a whole */
  taskOf: (fact: T) => string;
  /** the facts' order; facts of different tasks never compare equal */
  order: (a: T, b: T) => number;
};

/** How a read got its facts: kept as they were, changes folded in, or read in full. */
export type FactRead = "kept" | "folded" | "full";
type Entry = { snapshot: string; facts: unknown[]; lastRead: FactRead };

/** Facts per database client (tests and benches hold several) and per page. */
const cache = new WeakMap<object, Map<string, Entry>>();

/** Past this many changed keys or reached tasks, one full read costs less than folding them in. */
export const MAX_FOLDED_CHANGES = 5_000;
/** Once the record's oldest row is this many transaction ids old, a read empties its older part (in the background). */
export const FOLD_AFTER_TRANSACTIONS = 10_000;
/**
 * What a fold keeps: the rows of the last this many transaction ids. Facts read that recently
 * still fold changes in; emptying up to the present would send every process's next read to a full
 * one, and transaction ids are counted across the whole PostgreSQL cluster, so folds come often.
 */
export const FOLD_KEEPS_TRANSACTIONS = FOLD_AFTER_TRANSACTIONS / 2;

/** the record's rows for transactions the snapshot $1 did not see (only those from its xmin on can be such) */
const UNSEEN_CHANGES = `analytics_row_changes
  WHERE txid >= pg_snapshot_xmin($1::pg_snapshot)::text::bigint
    AND NOT pg_visible_in_snapshot(txid::text::xid8, $1::pg_snapshot)`;

type Change = { kind: string; key: string };
type Check = { snapshot: string; complete: boolean; changed: boolean; age: number | null };
type Changes = { snapshot: string; complete: boolean; changes: Change[] };

/**
 * This statement's snapshot; whether the record still holds every change the snapshot $1 did
 * not see (a fold empties the rows of transactions before its horizon); how old the record's
 * oldest row is; and `unseen`, what it asks of those changes.
 */
const checkSql = (unseen: string) => `
  SELECT pg_current_snapshot()::text AS snapshot,
         coalesce(g.horizon <= pg_snapshot_xmin($1::pg_snapshot)::text::bigint, false) AS complete,
         ${unseen},
         (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint - min(txid) FROM analytics_row_changes)::int AS age
  FROM analytics_generation g WHERE g.id = 1`;
/** every request's check: only whether a change is unseen (the usual answer is no) */
const CHECK_SQL = checkSql(`EXISTS (SELECT 1 FROM ${UNSEEN_CHANGES}) AS changed`);
/** a fold's first statement: the unseen changes themselves, up to one past what is worth folding */
const CHANGES_SQL = checkSql(
  `(SELECT coalesce(json_agg(c), '[]') FROM (SELECT kind, key FROM ${UNSEEN_CHANGES} LIMIT ${MAX_FOLDED_CHANGES + 1}) c) AS changes`,
);

// The tasks whose facts the changed keys reach, followed in the reader's snapshot: a link made by
// a transaction the writer could not see is still found. Several small statements, each only
// when its kind of key changed: one statement for every link planned in 15 ms at 100,000 tasks
// (its execution took 0.4 ms), and a fold after a few decisions needs only the candidate step.

/** tasks of changed environments, or of environments whose repository or current revision changed */
const TASKS_OF_ENVIRONMENTS_SQL = `
  SELECT t.id FROM environments e JOIN tasks t ON t.environment_id = e.id
  WHERE e.id = ANY($1::text[]) OR e.repository_id = ANY($2::text[]) OR e.current_revision_id = ANY($3::text[])`;
/** the tasks of changed candidates and of the candidates of changed tasks, and the tasks whose reviews judge those */
export const TASKS_OF_CANDIDATES_SQL = `
  WITH c AS (SELECT id, task_id FROM candidate_patches WHERE task_id = ANY($1::text[]) OR id = ANY($2::text[]))
  SELECT task_id AS id FROM c
  UNION SELECT tr.task_id FROM trajectories tr JOIN c ON tr.candidate_patch_id = c.id WHERE tr.task_id IS NOT NULL`;
/** generated tests made for a task whose instance id (or version) changed */
const TESTS_FOR_INSTANCES_SQL = `
  SELECT id FROM tasks WHERE kind = 'TEST_GENERATION' AND metadata->>'generatedFor' = ANY($1::text[])`;
/** the tasks of revised candidates that name a changed review */
const REVISIONS_OF_REVIEWS_SQL = `
  SELECT task_id AS id FROM candidate_patches WHERE metadata ? 'revision_of' AND metadata->>'review_id' = ANY($1::text[])`;

// by property, not `in`: the process-wide client is a Proxy that answers only `get`
const isClient = (db: Db): db is PrismaClient => typeof (db as { $transaction?: unknown }).$transaction === "function";
const TRANSACTION = { isolationLevel: "RepeatableRead", timeout: 120_000 } as const;

/**
 * The facts `source` reads, kept between requests and brought up to date from what changed.
 * Callers must not change the facts (they are shared by every request). Inside a caller's
 * transaction there is no snapshot of our own to check against, so the facts are read there.
 */
export async function cachedFacts<T>(db: Db, source: FactSource<T>): Promise<T[]> {
  if (!isClient(db)) return source.read(db);
  const pages = cache.get(db) ?? new Map<string, Entry>();
  cache.set(db, pages);
  const held = pages.get(source.name) as (Entry & { facts: T[] }) | undefined;
  if (!held) return readAll(db, source, pages);
  // the usual case in one statement, outside a transaction: its snapshot shows nothing new, so the facts are current
  const [check] = await db.$queryRawUnsafe<Check[]>(CHECK_SQL, held.snapshot);
  foldIfOld(db, check.age);
  if (check.complete && !check.changed) {
    held.lastRead = "kept";
    return held.facts;
  }
  if (!check.complete) return readAll(db, source, pages);
  return db.$transaction(async (tx) => {
    // the first statement takes the transaction's snapshot: the changes and the facts are read in the same one
    const [now] = await tx.$queryRawUnsafe<Changes[]>(CHANGES_SQL, held.snapshot);
    const tasks = now.complete ? await reachedTasks(tx, now.changes) : null;
    const facts = tasks
      ? foldIn(held.facts, await source.read(tx, tasks), new Set(tasks), source)
      : await source.read(tx);
    pages.set(source.name, { snapshot: now.snapshot, facts, lastRead: tasks ? "folded" : "full" });
    return facts;
  }, TRANSACTION);
}

/** Forgets every page's facts held for `db`: its next reads are cold (what the bench times as such). */
export const forgetFacts = (db: Db) => void cache.delete(db);

/** How the last read of these facts through `db` got them (what the tests and the bench look at). */
export const lastFactRead = (db: Db, name: string): FactRead | undefined => cache.get(db)?.get(name)?.lastRead;

async function readAll<T>(db: PrismaClient, source: FactSource<T>, pages: Map<string, Entry>): Promise<T[]> {
  return db.$transaction(async (tx) => {
    const [now] = await tx.$queryRawUnsafe<Check[]>(CHECK_SQL, null);
    const facts = await source.read(tx);
    pages.set(source.name, { snapshot: now.snapshot, facts, lastRead: "full" });
    return facts;
  }, TRANSACTION);
}

/** The tasks the changes reach, or null when reading everything is the cheaper (or only) way. */
async function reachedTasks(tx: Db, changes: Change[]): Promise<string[] | null> {
  if (changes.length > MAX_FOLDED_CHANGES || changes.some((c) => c.kind === "all")) return null;
  const keys = (kind: string) => [...new Set(changes.filter((c) => c.kind === kind).map((c) => c.key))];
  const reached = new Set(keys("task"));
  const ids = async (statement: string, ...values: string[][]) => {
    for (const row of await tx.$queryRawUnsafe<{ id: string }[]>(statement, ...values)) reached.add(row.id);
  };
  const [environments, repositories, revisions] = [keys("environment"), keys("repository"), keys("revision")];
  if (environments.length + repositories.length + revisions.length)
    await ids(TASKS_OF_ENVIRONMENTS_SQL, environments, repositories, revisions);
  const candidates = keys("candidate");
  if (reached.size + candidates.length) await ids(TASKS_OF_CANDIDATES_SQL, [...reached], candidates);
  const [instances, reviews] = [keys("instance"), keys("review")];
  if (instances.length) await ids(TESTS_FOR_INSTANCES_SQL, instances);
  if (reviews.length) await ids(REVISIONS_OF_REVIEWS_SQL, reviews);
  return reached.size > MAX_FOLDED_CHANGES ? null : [...reached];
}

/**
 * The kept facts with those of `tasks` replaced by `fresh`, in `order`: both lists are in
 * order, so one merge pass keeps it (facts of one task stay together, in the order read gave).
 */
export function foldIn<T>(kept: T[], fresh: T[], tasks: Set<string>, source: FactSource<T>): T[] {
  const rest = kept.filter((fact) => !tasks.has(source.taskOf(fact)));
  const merged: T[] = [];
  let i = 0;
  let j = 0;
  while (i < rest.length || j < fresh.length) {
    const takeFresh = i === rest.length || (j < fresh.length && source.order(fresh[j], rest[i]) < 0);
    merged.push(takeFresh ? fresh[j++] : rest[i++]);
  }
  return merged;
}

function foldIfOld(db: Db, age: number | null) {
  if (age !== null && age > FOLD_AFTER_TRANSACTIONS)
    void foldAnalyticsChanges(db).catch(logFailure("emptying the analytics change record"));
}

/**
 * Empties the record of transactions older than `keep` transaction ids before every running one
 * and moves the horizon there (never back), in one statement: facts read in a snapshot from before
 * the horizon, which the deleted rows spoke for, are read again in full; later facts still fold.
 */
export async function foldAnalyticsChanges(db: Db, keep = FOLD_KEEPS_TRANSACTIONS): Promise<void> {
  await db.$executeRawUnsafe(FOLD_SQL, keep);
}

const FOLD_SQL = `
  WITH cut AS (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint - $1::bigint AS horizon),
  moved AS (UPDATE analytics_generation SET horizon = greatest(horizon, (SELECT horizon FROM cut))
            WHERE id = 1 RETURNING horizon)
  DELETE FROM analytics_row_changes WHERE txid < (SELECT horizon FROM moved)`;

/**
 * Strings in code-point order: what ORDER BY … COLLATE "C" gives (byte order of UTF-8), the same
 * in every process and locale, so a full read and a fold put facts in the same order.
 */
export function byCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // a surrogate starts a code point past U+FFFF, so it sorts after every unit that is not one
    const xAstral = x >= 0xd800 && x <= 0xdfff;
    const yAstral = y >= 0xd800 && y <= 0xdfff;
    return xAstral === yAstral ? x - y : xAstral ? 1 : -1;
  }
  return a.length - b.length;
}

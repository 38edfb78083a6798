import { z } from "zod";
import { Prisma } from "../db/client";
import type { Db, PrismaClient } from "../db/client";
import { AppError } from "../errors/app-error";
import { STEP_KINDS } from "./step-kind";
import { getTrajectoryStep, type FullStep } from "./get-trajectory";

// Search inside one trajectory, in Postgres: words go through the steps' full-text vector
// (a GIN index, so a rare word is found among 100,000 steps without reading them); a
// regular expression, or words the vector does not hold whole (part of an identifier),
// are matched on the texts themselves under a time limit.

export const SearchStepsQuerySchema = z.object({
  q: z.string().trim().min(1).max(200).describe("words to find (all of them), or a regular expression with regex=1"),
  regex: z.enum(["0", "1"]).default("0").describe("1: q is a POSIX regular expression, matched case-insensitively"),
  kind: z.enum(STEP_KINDS).optional().describe("only steps of this kind"),
  first: z
    .enum(["0", "1"])
    .optional()
    .describe(
      "1: the first matching step comes along in full (firstStep), so a reader landing on it needs no second request",
    ),
});
export type SearchStepsQuery = z.infer<typeof SearchStepsQuerySchema>;

/** At most this many match indices are answered; the count is always exact. */
export const MAX_MATCHES = 2_000;
const SCAN_TIMEOUT_MS = 8_000;

export type StepSearchResult = {
  count: number;
  matches: number[];
  mode: "words" | "text" | "regex";
  firstStep?: FullStep | null;
};

function kindFilter(kind: SearchStepsQuery["kind"]) {
  return kind ? Prisma.sql`AND kind = ${kind}::"StepKind"` : Prisma.empty;
}

async function matchWords(db: Db, trajectoryId: string, query: SearchStepsQuery) {
  const where = Prisma.sql`trajectory_id = ${trajectoryId} AND search_vector @@ plainto_tsquery('simple', ${query.q}) ${kindFilter(query.kind)}`;
  return collect(db, where);
}

/** A scan of the texts (ILIKE or ~*), bounded by a statement timeout so a pathological pattern cannot hold a connection. */
async function matchText(db: PrismaClient, trajectoryId: string, query: SearchStepsQuery, regex: boolean) {
  const pattern = regex ? query.q : `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const test = (column: Prisma.Sql) =>
    regex ? Prisma.sql`${column} ~* ${pattern}` : Prisma.sql`${column} ILIKE ${pattern}`;
  const where = Prisma.sql`trajectory_id = ${trajectoryId} ${kindFilter(query.kind)} AND (${test(Prisma.sql`thought`)} OR ${test(Prisma.sql`action`)} OR ${test(Prisma.sql`observation`)})`;
  const run = async (tx: Db) => {
    await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${SCAN_TIMEOUT_MS}`);
    return collect(tx, where);
  };
  try {
    return await db.$transaction(run);
  } catch (error) {
    throw searchError(error, query.q);
  }
}

const badQuery = (detail: string) =>
  new AppError("BAD_REQUEST", detail, undefined, [{ field: "q", in: "query", pointer: "/q", detail }]);

function searchError(error: unknown, q: string): unknown {
  const text = error instanceof Error ? error.message : String(error);
  if (/invalid regular expression/i.test(text))
    return badQuery(
      `"${q}" is not a valid regular expression; check its brackets and escapes, or search for words instead.`,
    );
  if (/statement timeout|canceling statement/i.test(text))
    return badQuery(`Searching for "${q}" took too long; use whole words (they are indexed) or a narrower expression.`);
  return error;
}

/** The first matches and the exact count in one statement (the count is taken over every match before the LIMIT): one round trip, one connection. */
async function collect(db: Db, where: Prisma.Sql) {
  const rows = await db.$queryRaw<
    { index: number; total: bigint }[]
  >`SELECT index, count(*) OVER () AS total FROM trajectory_steps WHERE ${where} ORDER BY index LIMIT ${MAX_MATCHES}`;
  return { count: Number(rows[0]?.total ?? 0), matches: rows.map((r) => r.index) };
}

async function search(db: PrismaClient, trajectoryId: string, query: SearchStepsQuery): Promise<StepSearchResult> {
  if (query.regex === "1") return { ...(await matchText(db, trajectoryId, query, true)), mode: "regex" };
  const words = await matchWords(db, trajectoryId, query);
  if (words.count) return { ...words, mode: "words" };
  // nothing whole-word: perhaps part of an identifier or path ("handler" in numpy_handler.py)
  return { ...(await matchText(db, trajectoryId, query, false)), mode: "text" };
}

export async function searchTrajectorySteps(
  db: PrismaClient,
  trajectoryId: string,
  query: SearchStepsQuery,
): Promise<StepSearchResult> {
  const result = await search(db, trajectoryId, query);
  if (query.first !== "1") return result;
  // the step a reader lands on, in the same answer: the inspector shows it without asking again
  return {
    ...result,
    firstStep: result.matches.length ? await getTrajectoryStep(db, trajectoryId, result.matches[0]) : null,
  };
}

import { z } from "zod";
import type { Db } from "../db/client";
import { AppError } from "../errors/app-error";
import { notHiddenSql, type BlindSet } from "../auth/blind";
import { allOf, raw, sql, type SqlFragment } from "../db/sql";
import { MIN_TEXT_SEARCH_TERM, textSearchQuery } from "../tasks/task-list-sql";
import { OUTCOME_SQL, OUTCOMES, type Outcome } from "./trajectory-outcome";

// Search across every step of every trajectory, in Postgres: the steps' full-text vector (the
// GIN index the inspector's search uses) finds the steps, joined to their trajectory, task and
// candidate for the filters; pages follow a keyset cursor on (trajectory, step), so page 1,000
// costs what page 1 does. Snippets are Postgres's own ts_headline, marked with control
// characters and split here into pieces, so no markup from a step ever reaches the page.

export const CrossSearchQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe("words to find in thought, action or observation (all of them, each as a word prefix)"),
  model: z.string().trim().min(1).max(200).optional().describe("only trajectories of this model"),
  task: z.string().trim().min(1).max(200).optional().describe("only trajectories of this task (instance id)"),
  verdict: z
    .enum(OUTCOMES)
    .optional()
    .describe("only trajectories with this outcome: the candidate's ground truth, else how the run ended"),
  cursor: z.string().max(200).optional().describe("nextCursor of the previous page"),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type CrossSearchQuery = z.infer<typeof CrossSearchQuerySchema>;

export type SnippetPiece = { text: string; match: boolean };
export type StepHit = {
  trajectoryId: string;
  /** 0-based; the inspector's ?step= counts from 1 */
  stepIndex: number;
  kind: string | null;
  model: string | null;
  taskId: string | null;
  instanceId: string | null;
  outcome: Outcome;
  snippet: SnippetPiece[];
};
export type CrossSearchPage = { items: StepHit[]; nextCursor: string | null };

const START = "\u0001";
const STOP = "\u0002";
const HEADLINE_OPTIONS = `StartSel=${START}, StopSel=${STOP}, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "`;
// the same bounded prefixes the search vector is made of (migration 20261203133808_trajectory_inspector)
const STEP_TEXT = raw(
  `left(COALESCE(s.thought, ''), 100000) || ' ' || left(COALESCE(s.action, ''), 100000) || ' ' || left(COALESCE(s.observation, ''), 200000)`,
);

const badField = (field: string, detail: string) =>
  new AppError("BAD_REQUEST", detail, undefined, [{ field, in: "query", pointer: `/${field}`, detail }]);

function encodeCursor(trajectoryId: string, stepIndex: number): string {
  return Buffer.from(JSON.stringify([trajectoryId, stepIndex])).toString("base64url");
}

function decodeCursor(cursor: string): [string, number] {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && typeof value[0] === "string" && Number.isInteger(value[1])) return [value[0], value[1]];
  } catch {
    // falls through to the one sentence below
  }
  throw badField("cursor", "The page cursor is not valid; search again from the first page.");
}

/** The tsquery of the search box, or a sentence saying what to type. */
export function stepTsQuery(q: string): string {
  const query = textSearchQuery(q);
  if (!query)
    throw badField(
      "q",
      `Search for at least one word of ${MIN_TEXT_SEARCH_TERM} or more characters in the search box.`,
    );
  return query;
}

/** The conditions every cross-trajectory read shares: the filters and what the reader may not see. */
export function trajectoryFilters(
  query: Pick<CrossSearchQuery, "model" | "task" | "verdict">,
  blind: BlindSet,
): SqlFragment {
  return allOf([
    query.model ? sql`tr.model = ${query.model}` : raw("TRUE"),
    query.task ? sql`t.instance_id = ${query.task}` : raw("TRUE"),
    query.verdict ? sql`${OUTCOME_SQL} = ${query.verdict}` : raw("TRUE"),
    // a trajectory of no task is nobody's secret; one of a hidden task is absent
    blind.sql ? sql`(tr.task_id IS NULL OR ${notHiddenSql(blind, "tr.task_id")})` : raw("TRUE"),
  ]);
}

/** The statement of one page (exported so the benchmark times exactly it). */
export function crossSearchSql(query: CrossSearchQuery, blind: BlindSet): SqlFragment {
  const tsQuery = stepTsQuery(query.q);
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  return sql`WITH hits AS (
      SELECT s.trajectory_id, s.index FROM trajectory_steps s
      JOIN trajectories tr ON tr.id = s.trajectory_id
      LEFT JOIN tasks t ON t.id = tr.task_id
      LEFT JOIN candidate_patches cp ON cp.id = tr.candidate_patch_id
      WHERE s.search_vector @@ to_tsquery('simple', ${tsQuery}) AND ${trajectoryFilters(query, blind)}
        ${after ? sql`AND (s.trajectory_id, s.index) > (${after[0]}, ${after[1]}::int)` : raw("")}
      ORDER BY s.trajectory_id, s.index LIMIT ${query.limit + 1}::int)
    SELECT h.trajectory_id, h.index, s.kind::text AS kind, tr.model, t.id AS task_id, t.instance_id, ${OUTCOME_SQL} AS outcome,
      ts_headline('simple', ${STEP_TEXT}, to_tsquery('simple', ${tsQuery}), ${HEADLINE_OPTIONS}) AS snippet
    FROM hits h JOIN trajectory_steps s ON s.trajectory_id = h.trajectory_id AND s.index = h.index
    JOIN trajectories tr ON tr.id = h.trajectory_id
    LEFT JOIN tasks t ON t.id = tr.task_id
    LEFT JOIN candidate_patches cp ON cp.id = tr.candidate_patch_id
    ORDER BY h.trajectory_id, h.index`;
}

/** ts_headline's marked text as plain and marked pieces; runs of whitespace shortened so a snippet stays a line or two. */
export function snippetPieces(marked: string): SnippetPiece[] {
  const pieces: SnippetPiece[] = [];
  for (const [i, part] of marked.replace(/\s+/g, " ").split(START).entries()) {
    const [hit, rest] = i === 0 ? [null, part] : part.split(STOP);
    if (hit) pieces.push({ text: hit, match: true });
    if (rest) pieces.push({ text: rest, match: false });
  }
  return pieces;
}

type HitRow = {
  trajectory_id: string;
  index: number;
  kind: string | null;
  model: string | null;
  task_id: string | null;
  instance_id: string | null;
  outcome: Outcome;
  snippet: string;
};

/** One page of steps matching the words, across every trajectory the reader may see. */
export async function searchAllSteps(db: Db, query: CrossSearchQuery, blind: BlindSet): Promise<CrossSearchPage> {
  const { text, values } = crossSearchSql(query, blind).toQuery();
  const rows = await db.$queryRawUnsafe<HitRow[]>(text, ...values);
  const items = rows.slice(0, query.limit).map((row) => ({
    trajectoryId: row.trajectory_id,
    stepIndex: row.index,
    kind: row.kind,
    model: row.model,
    taskId: row.task_id,
    instanceId: row.instance_id,
    outcome: row.outcome,
    snippet: snippetPieces(row.snippet),
  }));
  const last = items.at(-1);
  return {
    items,
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.trajectoryId, last.stepIndex) : null,
  };
}

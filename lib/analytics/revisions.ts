import type { Db } from "../db/client";
import { EMPTY, sql } from "../db/sql";
import { GROUND_TRUTH_SELECT, honestResolved } from "../trajectories/score-reviewers";
import { count, rateCells, rateColumn, text, type FigureRow, type FigureTable } from "./figures";
import { labelOrMissing } from "../metrics/missing-label";
import { groupItems, selectItems, uniqueTaskIds, type Dimensions, type Outcomes } from "./item-slices";
import { sliceHref, type SliceParams } from "./slice-key";
import { byCodePoints, cachedFacts, type FactSource } from "./fact-cache";

// SWE-Review's revision loop: a candidate patch revised after a review. A revised candidate is
// imported as a prediction whose extra fields name its predecessor (`revision_of`: the
// predecessor's model_name_or_path on the same task) and the review that prompted it
// (`review_id`); both patches are validated like any candidate. The resolve rate before and
// after revision is measured over the pairs whose two patches both have ground truth.

export type RevisionPair = {
  taskId: string;
  instanceId: string;
  generator: string;
  revisedGenerator: string;
  reviewer: string;
  before: boolean | null;
  after: boolean | null;
};

export const REVISION_DIMENSIONS: Dimensions<RevisionPair> = {
  reviewer: (p) => p.reviewer,
  generator: (p) => p.generator,
};
const measured = (p: RevisionPair) => p.before !== null && p.after !== null;
export const REVISION_OUTCOMES: Outcomes<RevisionPair> = {
  pairs: () => true,
  measured,
  resolvedBefore: (p) => measured(p) && p.before === true,
  resolvedAfter: (p) => measured(p) && p.after === true,
  broke: (p) => p.before === true && p.after === false,
  fixed: (p) => p.before === false && p.after === true,
};

function changeWords(p: RevisionPair): string {
  if (!measured(p)) return "not measured yet";
  if (p.before === p.after) return p.before ? "still resolved" : "still not resolved";
  return p.after ? "fixed by the revision" : "broken by the revision";
}

/** Pure: resolve rate before and after revision per reviewer and generator, and every pair. */
export function buildRevisionLoop(
  pairs: RevisionPair[],
  filters: SliceParams,
): { revisions: FigureTable; revisionPairs: FigureTable } {
  const chosen = selectItems(pairs, filters, REVISION_DIMENSIONS, REVISION_OUTCOMES);
  const rows: FigureRow[] = [];
  const drill: FigureTable["drill"] = {};
  for (const group of groupItems(chosen, ["reviewer", "generator"], REVISION_DIMENSIONS)) {
    const n = (o: string) => group.items.filter((p) => REVISION_OUTCOMES[o](p, {})).length;
    rows.push({
      key: group.key,
      reviewer: group.values.reviewer,
      generator: group.values.generator,
      pairs: n("pairs"),
      measured: n("measured"),
      ...rateCells("resolveRateBefore", n("resolvedBefore"), n("measured")),
      ...rateCells("resolveRateAfter", n("resolvedAfter"), n("measured")),
      fixed: n("fixed"),
      broke: n("broke"),
    });
    drill[group.key] = Object.fromEntries(
      Object.keys(REVISION_OUTCOMES).map((o) => [
        o,
        sliceHref("revisions", { ...filters, ...group.values, outcome: o }),
      ]),
    );
  }
  return {
    revisions: {
      title: "Resolve rate before and after revision",
      columns: [
        text("reviewer", "Reviewer that prompted it"),
        text("generator", "Generator"),
        count("pairs", "Revised patches"),
        count("measured", "Both validated"),
        rateColumn("resolveRateBefore", "Resolve rate before"),
        rateColumn("resolveRateAfter", "Resolve rate after revision"),
        count("fixed", "Fixed by the revision"),
        count("broke", "Broken by the revision"),
      ],
      rows,
      drill,
    },
    revisionPairs: {
      title: "Each revised patch",
      columns: [
        text("task", "Task"),
        text("generator", "Predecessor"),
        text("revisedGenerator", "Revision"),
        text("reviewer", "Prompted by"),
        text("change", "Result"),
      ],
      rows: chosen.map((p) => ({
        key: `${p.taskId}|${p.revisedGenerator}`,
        task: p.instanceId,
        generator: p.generator,
        revisedGenerator: p.revisedGenerator,
        reviewer: p.reviewer,
        change: changeWords(p),
      })),
      drill: Object.fromEntries(
        chosen.map((p) => [`${p.taskId}|${p.revisedGenerator}`, { task: `/tasks/${p.taskId}` }]),
      ),
    },
  };
}

const metaText = (metadata: unknown, key: string) => {
  const value = (metadata as Record<string, unknown> | null)?.[key];
  return typeof value === "string" && value ? value : null;
};

/** Every revised candidate with its predecessor's ground truth, read again only after a write. */
export const loadRevisionPairs = (db: Db): Promise<RevisionPair[]> => cachedFacts(db, REVISION_PAIR_FACTS);

/** Every revised candidate (of `tasks`, when given) with its predecessor's ground truth, from the tables. */
export async function readRevisionPairs(db: Db, tasks?: string[]): Promise<RevisionPair[]> {
  const { text: statement, values } = sql`SELECT id FROM candidate_patches WHERE metadata ? 'revision_of'
    ${tasks ? sql`AND task_id = ANY(${tasks}::text[])` : EMPTY}`.toQuery();
  const marked = await db.$queryRawUnsafe<{ id: string }[]>(statement, ...values);
  if (marked.length === 0) return [];
  const revised = await db.candidatePatch.findMany({
    where: { id: { in: marked.map((m) => m.id) } },
    select: {
      ...GROUND_TRUTH_SELECT,
      generator: true,
      metadata: true,
      taskId: true,
      task: { select: { ...GROUND_TRUTH_SELECT.task.select, instanceId: true } },
    },
  });
  const pairs: RevisionPair[] = [];
  for (const candidate of revised) {
    const predecessorName = metaText(candidate.metadata, "revision_of");
    if (!predecessorName) continue;
    const predecessor = await db.candidatePatch.findUnique({
      where: { taskId_generator: { taskId: candidate.taskId, generator: predecessorName } },
      select: GROUND_TRUTH_SELECT,
    });
    if (!predecessor) continue;
    const reviewId = metaText(candidate.metadata, "review_id");
    const review = reviewId
      ? await db.trajectory.findFirst({
          where: { role: "REVIEWER", metadata: { path: ["reviewId"], equals: reviewId } },
          select: { model: true },
        })
      : null;
    pairs.push({
      taskId: candidate.taskId,
      instanceId: candidate.task.instanceId,
      generator: predecessorName,
      revisedGenerator: candidate.generator,
      reviewer: review ? labelOrMissing(review.model, "(no model)") : "(no review named)",
      before: honestResolved(predecessor),
      after: honestResolved(candidate),
    });
  }
  return pairs.sort(pairOrder);
}

const pairOrder = (a: RevisionPair, b: RevisionPair) =>
  a.instanceId.localeCompare(b.instanceId) ||
  byCodePoints(a.taskId, b.taskId) ||
  a.revisedGenerator.localeCompare(b.revisedGenerator);

const REVISION_PAIR_FACTS: FactSource<RevisionPair> = {
  name: "revision pairs",
  read: readRevisionPairs,
  taskOf: (pair) => pair.taskId,
  order: pairOrder,
};

export async function revisionSliceTaskIds(db: Db, params: SliceParams): Promise<string[]> {
  return uniqueTaskIds(selectItems(await loadRevisionPairs(db), params, REVISION_DIMENSIONS, REVISION_OUTCOMES));
}

import type { Db } from "../db/client";
import { linesSeen, parseStepEdit, type StepEdit } from "./step-edits";

/** How far back a line edit looks for the file window it replaced. */
const LOOKBACK_STEPS = 30;

/** A step's edit, with a SWE-agent line edit's old lines taken from the last windows the agent saw of that file. */
export async function editOfStep(
  db: Db,
  trajectoryId: string,
  step: { index: number; action: string | null; metadata: unknown },
): Promise<StepEdit | null> {
  const edit = parseStepEdit(step);
  if (!edit || edit.operation !== "lines" || !edit.path || edit.startLine === undefined) return edit;
  const earlier = await db.trajectoryStep.findMany({
    where: {
      trajectoryId,
      index: { lt: step.index, gte: step.index - LOOKBACK_STEPS },
      observation: { startsWith: "[File: " },
    },
    orderBy: { index: "desc" },
    select: { observation: true },
  });
  return {
    ...edit,
    before: linesSeen(
      earlier.map((s) => s.observation),
      edit.path,
      edit.startLine,
      edit.endLine ?? edit.startLine,
    ),
  };
}

export const MAX_EDITS_LISTED = 1_000;

/** Every edit the agent made up to a step (inclusive), in order: where the repository stood as the agent saw it there. */
export async function editsUpTo(db: Db, trajectoryId: string, upTo: number) {
  const steps = await db.trajectoryStep.findMany({
    where: { trajectoryId, kind: "EDIT", index: { lte: upTo } },
    orderBy: { index: "asc" },
    take: MAX_EDITS_LISTED,
    select: { index: true, action: true, metadata: true },
  });
  return steps.flatMap((step) => {
    const edit = parseStepEdit(step);
    return edit
      ? [
          {
            index: step.index,
            path: edit.path,
            operation: edit.operation,
            after: edit.after,
            before: edit.before,
            startLine: edit.startLine,
            endLine: edit.endLine,
          },
        ]
      : [];
  });
}

import { defineRoute } from "@/lib/http/define-route";
import { undoDecision } from "@/lib/curation/undo-decision";
import { AnyObject, IdParams } from "@/lib/http/api-schemas";

/** Takes back the caller's own latest decision on a task, within the undo window (audited as an undo). */
export const POST = defineRoute(
  {
    permission: "tasks:decide",
    summary: "Undo your own latest decision on a task (within 15 minutes; audited)",
    params: IdParams,
    response: AnyObject,
  },
  ({ db, actor, params }) => undoDecision(db, actor, params.id),
);

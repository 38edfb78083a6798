import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { QueuedReplaySchema } from "@/lib/http/api-schemas";
import { requestStepReplay } from "@/lib/trajectories/replay/request-step-replay";

const StepParams = z.object({ id: z.string().min(1).max(200), index: z.coerce.number().int().min(0) });

/** Replay the trajectory's commands and edits up to this step in a fresh container of its task's environment. */
export const POST = defineRoute(
  {
    permission: "jobs:run",
    summary:
      "Replay the trajectory's commands and edits up to and including this step in a fresh, networkless container of its task's environment",
    params: StepParams,
    response: QueuedReplaySchema,
    status: 202,
  },
  ({ db, actor, params }) =>
    requestStepReplay(db, { trajectoryId: params.id, stepIndex: params.index, actorId: actor.id }),
);

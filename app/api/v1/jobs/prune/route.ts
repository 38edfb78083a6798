import { defineRoute } from "@/lib/http/define-route";
import { requestPrune } from "@/lib/worker-runtime/prune-job";
import { AnyObject } from "@/lib/http/api-schemas";

export const POST = defineRoute(
  {
    permission: "settings:manage",
    summary: "Queue a prune of stopped containers and dangling images",
    response: AnyObject,
    status: 202,
  },
  ({ db, actor }) => requestPrune(db, actor.id),
);

import { defineRoute } from "@/lib/http/define-route";
import { cancelBuild } from "@/lib/builds/cancel-build";
import { AnyObject, IdParams } from "@/lib/http/api-schemas";

export const POST = defineRoute(
  { permission: "jobs:run", summary: "Cancel a queued or running build", params: IdParams, response: AnyObject },
  ({ db, params }) => cancelBuild(db, params.id),
);

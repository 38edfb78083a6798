import { defineRoute } from "@/lib/http/define-route";
import { AnyObject, IdParams } from "@/lib/http/api-schemas";
import { promoteGeneratedTest, PromoteSchema } from "@/lib/analytics/generated-test-actions";

export const POST = defineRoute(
  {
    permission: "tasks:edit",
    summary:
      "Promote a valid generated test into its task's FAIL_TO_PASS (a new task version, audited; 409 when the task changed since `version`)",
    params: IdParams,
    body: PromoteSchema,
    response: AnyObject,
  },
  ({ db, params, body, actor }) => promoteGeneratedTest(db, actor, params.id, body.version),
);

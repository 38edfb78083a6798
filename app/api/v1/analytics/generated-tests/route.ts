import { defineRoute } from "@/lib/http/define-route";
import { AnyObject } from "@/lib/http/api-schemas";
import { generatedTestAnalytics, GeneratedTestQuerySchema } from "@/lib/analytics/generated-tests";
import { addAndValidateGeneratedTest, GeneratedTestInputSchema } from "@/lib/analytics/generated-test-actions";
import { defineAnalyticsRoute } from "@/lib/http/analytics-route";

export const GET = defineAnalyticsRoute(
  "generated-tests",
  "Generated tests: attack rate, output accuracy and accuracy ∩ attack per generator or repository, with each test's runs",
  GeneratedTestQuerySchema,
  generatedTestAnalytics,
);

export const POST = defineRoute(
  {
    permission: "imports:run",
    summary: "Add a test generator's test for a task and queue its validation (without the fix, with the gold fix)",
    body: GeneratedTestInputSchema,
    response: AnyObject,
    status: 201,
    idempotent: true,
  },
  ({ db, body, actor }) => addAndValidateGeneratedTest(db, body, actor.id),
);

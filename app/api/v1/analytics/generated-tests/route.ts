import { generatedTestAnalytics, GeneratedTestQuerySchema } from "@/lib/analytics/generated-tests";
import { defineAnalyticsRoute } from "@/lib/http/analytics-route";

export const GET = defineAnalyticsRoute(
  "generated-tests",
  "Generated tests: attack rate, output accuracy and accuracy ∩ attack per generator or repository, with each test's runs",
  GeneratedTestQuerySchema,
  generatedTestAnalytics,
);

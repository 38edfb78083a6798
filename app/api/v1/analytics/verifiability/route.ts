import { verifiabilityAnalytics, VerifiabilityQuerySchema } from "@/lib/analytics/verifiability";
import { defineAnalyticsRoute } from "@/lib/http/analytics-route";

export const GET = defineAnalyticsRoute(
  "verifiability",
  "Verifiability of test-driven steps per project, and the steps that are not verifiable with the cause read from their logs",
  VerifiabilityQuerySchema,
  verifiabilityAnalytics,
);

import { computeFunnel, FunnelQuerySchema } from "@/lib/analytics/funnel";
import { defineAnalyticsRoute } from "@/lib/http/analytics-route";

export const GET = defineAnalyticsRoute(
  "funnel",
  "Validation funnel: tasks reaching each gate and the failure classes where they drop",
  FunnelQuerySchema,
  computeFunnel,
);

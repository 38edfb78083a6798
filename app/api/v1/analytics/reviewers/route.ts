import { reviewerAnalytics, ReviewerQuerySchema } from "@/lib/analytics/reviewers";
import { defineAnalyticsRoute } from "@/lib/http/analytics-route";

export const GET = defineAnalyticsRoute(
  "reviewers",
  "Reviewer agents against executed ground truth: accuracy, false approvals and rejections, cost per correct decision, reproducer share, calibration, causes",
  ReviewerQuerySchema,
  reviewerAnalytics,
);

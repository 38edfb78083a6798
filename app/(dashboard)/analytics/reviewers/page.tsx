import { reviewerAnalytics, ReviewerQuerySchema } from "@/lib/analytics/reviewers";
import { Prefetched } from "@/components/ui/prefetched";
import { ReviewersAnalyticsPage } from "@/components/analytics/reviewers-page";
import { analyticsPageData } from "../analytics-page-data";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  const entries = await analyticsPageData("reviewers", ReviewerQuerySchema, reviewerAnalytics, await searchParams);
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Reviewer analytics</h1>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">
        Reviewer verdicts compared with whether the reviewed patch resolved its task in a validation run. A false
        approval lets through a patch that does not resolve the task; a false rejection turns away one that does.
      </p>
      <Prefetched entries={entries}>
        <ReviewersAnalyticsPage />
      </Prefetched>
    </>
  );
}

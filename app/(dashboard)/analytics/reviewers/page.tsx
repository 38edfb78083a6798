import { Suspense } from "react";
import { ReviewersAnalyticsPage } from "@/components/analytics/reviewers-page";

export default function Page() {
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Reviewer analytics</h1>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">Reviewer verdicts compared with whether the reviewed patch resolved its task in a validation run. A false approval lets through a patch that does not resolve the task; a false rejection turns away one that does.</p>
      <Suspense>
        <ReviewersAnalyticsPage />
      </Suspense>
    </>
  );
}

import { verifiabilityAnalytics, VerifiabilityQuerySchema } from "@/lib/analytics/verifiability";
import { Prefetched } from "@/components/ui/prefetched";
import { VerifiabilityPage } from "@/components/analytics/verifiability-page";
import { analyticsPageData } from "../analytics-page-data";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  const entries = await analyticsPageData(
    "verifiability",
    VerifiabilityQuerySchema,
    verifiabilityAnalytics,
    await searchParams,
  );
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Verifiability of test-driven steps</h1>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">
        A step is verifiable when its ground-truth patch, applied to the step&apos;s skeleton, passes the step&apos;s
        tests (its positive control run).
      </p>
      <Prefetched entries={entries}>
        <VerifiabilityPage />
      </Prefetched>
    </>
  );
}

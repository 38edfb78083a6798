import { generatedTestAnalytics, GeneratedTestQuerySchema } from "@/lib/analytics/generated-tests";
import { Prefetched } from "@/components/ui/prefetched";
import { GeneratedTestsPage } from "@/components/analytics/generated-tests-page";
import { analyticsPageData } from "../analytics-page-data";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  const entries = await analyticsPageData(
    "generated-tests",
    GeneratedTestQuerySchema,
    generatedTestAnalytics,
    await searchParams,
  );
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Generated tests</h1>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">
        A generated test attacks when it fails on the code without the fix and is accurate when it passes with the gold
        fix; both make it a valid fail-to-pass test.
      </p>
      <Prefetched entries={entries}>
        <GeneratedTestsPage />
      </Prefetched>
    </>
  );
}

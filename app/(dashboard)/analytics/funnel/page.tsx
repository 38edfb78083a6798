import { computeFunnel, FunnelQuerySchema } from "@/lib/analytics/funnel";
import { Prefetched } from "@/components/ui/prefetched";
import { FunnelPage } from "@/components/analytics/funnel-page";
import { analyticsPageData } from "../analytics-page-data";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  const entries = await analyticsPageData("funnel", FunnelQuerySchema, computeFunnel, await searchParams);
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Validation funnel</h1>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">
        Tasks reaching each gate. A task counts at the first gate its recorded verdict and failure class say it failed;
        open any number to see exactly those tasks.
      </p>
      <Prefetched entries={entries}>
        <FunnelPage />
      </Prefetched>
    </>
  );
}

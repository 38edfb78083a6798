import { Suspense } from "react";
import { FunnelPage } from "@/components/analytics/funnel-page";

export default function Page() {
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Validation funnel</h1>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">Tasks reaching each gate. A task counts at the first gate its recorded verdict and failure class say it failed; open any number to see exactly those tasks.</p>
      <Suspense>
        <FunnelPage />
      </Suspense>
    </>
  );
}

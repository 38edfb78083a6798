import { Suspense } from "react";
import { VerifiabilityPage } from "@/components/analytics/verifiability-page";

export default function Page() {
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Verifiability of test-driven steps</h1>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">A step is verifiable when its ground-truth patch, applied to the step&apos;s skeleton, passes the step&apos;s tests (its positive control run).</p>
      <Suspense>
        <VerifiabilityPage />
      </Suspense>
    </>
  );
}

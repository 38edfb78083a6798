import { Suspense } from "react";
import { GeneratedTestsPage } from "@/components/analytics/generated-tests-page";

export default function Page() {
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Generated tests</h1>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">A generated test attacks when it fails on the code without the fix and is accurate when it passes with the gold fix; both make it a valid fail-to-pass test.</p>
      <Suspense>
        <GeneratedTestsPage />
      </Suspense>
    </>
  );
}

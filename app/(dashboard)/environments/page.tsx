import { Suspense } from "react";
import { EnvironmentList } from "@/components/environments/environment-list";

export default function EnvironmentsPage() {
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Environments</h1>
      <Suspense fallback={<p>Loading environments…</p>}>
        <EnvironmentList />
      </Suspense>
    </>
  );
}

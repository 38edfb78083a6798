import Link from "next/link";
import { EnvironmentBuildPanel } from "@/components/validation/environment-build-panel";

export const metadata = { title: "Builds · SWE Curator" };

/** An environment's image builds on their own page; the environment page embeds the same panel. */
export default async function EnvironmentBuildsPage({ params }: { params: Promise<{ environmentId: string }> }) {
  const { environmentId } = await params;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <h1 className="text-xl font-semibold text-slate-900">Image builds</h1>
        <Link className="text-sm text-blue-800 underline" href={`/environments/${environmentId}`}>
          Open the environment
        </Link>
      </div>
      <EnvironmentBuildPanel environmentId={environmentId} />
    </div>
  );
}

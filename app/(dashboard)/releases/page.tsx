import { Link } from "@/components/ui/link";
import { NewReleaseForm } from "@/components/releases/new-release-form";
import { CompareReleasesForm } from "@/components/releases/compare-form";
import { releasesPageData } from "./release-page-data";

export default async function ReleasesPage() {
  const { releases, mayCreate } = await releasesPageData();
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Releases</h1>
      <p className="max-w-3xl text-sm text-slate-600">
        A release is a named snapshot of the approved tasks with the evidence each was approved on. It never changes;
        compare any two to see which tasks were added, removed or changed, and why.
      </p>
      {mayCreate && <NewReleaseForm />}
      {releases.length >= 2 && <CompareReleasesForm releases={releases} />}
      {releases.length === 0 ? (
        <p className="text-sm text-slate-600">No release yet.</p>
      ) : (
        <table className="w-full text-sm" data-testid="releases-table">
          <caption className="sr-only">Releases, newest first</caption>
          <thead>
            <tr className="border-b text-left text-slate-600">
              <th scope="col" className="py-1 pr-4 font-medium">
                Name
              </th>
              <th scope="col" className="py-1 pr-4 text-right font-medium">
                Tasks
              </th>
              <th scope="col" className="py-1 pr-4 font-medium">
                Description
              </th>
              <th scope="col" className="py-1 pr-4 font-medium">
                Created by
              </th>
              <th scope="col" className="py-1 pr-4 font-medium">
                Created
              </th>
            </tr>
          </thead>
          <tbody>
            {releases.map((release) => (
              <tr key={release.id} className="border-b border-slate-100">
                <td className="py-1 pr-4 font-mono">
                  <Link href={`/releases/${release.id}`} className="text-blue-700 underline">
                    {release.name}
                  </Link>
                </td>
                <td className="py-1 pr-4 text-right tabular-nums">{release.taskCount}</td>
                <td className="py-1 pr-4">{release.description}</td>
                <td className="py-1 pr-4">{release.createdByEmail ?? "—"}</td>
                <td className="py-1">{release.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

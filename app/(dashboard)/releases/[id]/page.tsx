import { Link } from "@/components/ui/link";
import { ColumnHeads, ReleasesBreadcrumb, TaskCell } from "@/components/releases/release-page-parts";
import { releasePageData } from "../release-page-data";

const short = (hash: string | null | undefined) => (hash ? hash.slice(0, 12) : "—");

export default async function ReleasePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { release, previous } = await releasePageData(decodeURIComponent(id));
  return (
    <div className="flex flex-col gap-4">
      <ReleasesBreadcrumb />
      <h1 className="text-xl font-semibold">
        Release <span className="font-mono">{release.name}</span>
      </h1>
      <dl className="grid max-w-2xl grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">Tasks</dt>
        <dd className="tabular-nums">{release.tasks.length}</dd>
        <dt className="text-slate-600">Created</dt>
        <dd>
          {release.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC by {release.createdByEmail ?? "—"}
        </dd>
        {release.description && (
          <>
            <dt className="text-slate-600">Description</dt>
            <dd>{release.description}</dd>
          </>
        )}
      </dl>
      <div className="flex flex-wrap gap-3 text-sm">
        <a href={`/api/v1/releases/${release.id}/export?file=jsonl`} className="text-blue-700 underline">
          Download tasks (swe-curator-release-{release.name}.jsonl)
        </a>
        <a href={`/api/v1/releases/${release.id}/export?file=manifest`} className="text-blue-700 underline">
          Download manifest
        </a>
        {previous && (
          <Link href={`/releases/diff?from=${previous.id}&to=${release.id}`} className="text-blue-700 underline">
            Compare with {previous.name}
          </Link>
        )}
      </div>
      <table className="w-full text-sm" data-testid="release-tasks">
        <caption className="sr-only">Tasks of release {release.name}</caption>
        <ColumnHeads
          labels={["Task", "Evidence fingerprint", "Recipe", "Controls (negative / positive)", "Decisions"]}
        />
        <tbody>
          {release.tasks.map((task) => (
            <tr key={task.taskId} className="border-b border-slate-100 align-top">
              <TaskCell taskId={task.taskId} instanceId={task.instanceId} />
              <td className="py-1 font-mono" title={task.evidenceFingerprint}>
                {short(task.evidenceFingerprint)}
              </td>
              <td className="py-1">{task.evidence.recipe ? `revision ${task.evidence.recipe.number}` : "—"}</td>
              <td className="py-1 font-mono text-xs">
                {task.evidence.negative?.verdict ?? "—"} / {task.evidence.positive?.verdict ?? "—"}
              </td>
              <td className="py-1">
                {task.decisions.map((d) => `${d.verdict.toLowerCase()} by ${d.curator}`).join(", ")}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import { DiffCountsChart } from "@/components/releases/diff-counts";
import { ColumnHeads, ReleasesBreadcrumb, TaskCell } from "@/components/releases/release-page-parts";
import { releaseDiffPageData } from "../release-page-data";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
type Entry = { taskId: string; instanceId: string; why: string[] };

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

function DiffSection({ id, title, entries }: { id: string; title: string; entries: Entry[] }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-1">
      <h2 id={`${id}-heading`} className="text-base font-semibold">
        <span id={id}>{title}</span> ({entries.length})
      </h2>
      {entries.length === 0 ? (
        <p className="text-sm text-slate-600">None.</p>
      ) : (
        <table className="w-full text-sm" data-testid={`diff-${id}`}>
          <caption className="sr-only">{title} tasks</caption>
          <ColumnHeads labels={["Task", "Why"]} />
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.taskId} className="border-b border-slate-100 align-top">
                <TaskCell taskId={entry.taskId} instanceId={entry.instanceId} />
                <td className="py-1">
                  <ul>
                    {entry.why.map((reason) => (
                      <li key={reason}>{reason}</li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export default async function ReleaseDiffPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const { releases, diff } = await releaseDiffPageData(one(query.from), one(query.to));
  return (
    <div className="flex flex-col gap-4">
      <ReleasesBreadcrumb />
      <h1 className="text-xl font-semibold">
        {diff ? (
          <>
            From <span className="font-mono">{diff.from.name}</span> to{" "}
            <span className="font-mono">{diff.to.name}</span>
          </>
        ) : (
          "Compare releases"
        )}
      </h1>
      {!diff ? (
        <p className="text-sm text-slate-600">
          {releases.length < 2
            ? "Two releases are needed to compare."
            : "Choose two releases on the releases page and press Compare."}
        </p>
      ) : (
        <>
          <DiffCountsChart
            counts={{
              added: diff.added.length,
              removed: diff.removed.length,
              changed: diff.changed.length,
              unchanged: diff.unchanged,
            }}
          />
          <DiffSection id="added" title="Added" entries={diff.added} />
          <DiffSection id="removed" title="Removed" entries={diff.removed} />
          <DiffSection id="changed" title="Changed" entries={diff.changed} />
        </>
      )}
    </div>
  );
}

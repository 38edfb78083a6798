"use client";
import { Badge, humanize } from "@/components/ui/badge";
import { ErrorText } from "@/components/ui/error-text";
import { TimeAgo } from "@/components/ui/time-ago";
import { useImportHistory } from "./use-import-batch";
import { recordsOf } from "./types";

/** Past and running imports, newest first; choosing one opens its report. */
export function BatchHistory({ selected, onSelect }: { selected: string | null; onSelect: (id: string) => void }) {
  const query = useImportHistory();
  if (query.error) return <ErrorText error={query.error} />;
  const items = query.data?.items ?? [];
  return (
    <section aria-labelledby="history-heading" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="history-heading" className="mb-2 font-medium">
        Import history
      </h2>
      {!items.length ? (
        <p className="text-sm text-slate-600">{query.isLoading ? "Loading…" : "No imports yet."}</p>
      ) : null}
      <ul className="divide-y divide-slate-100">
        {items.map((batch) => (
          <li key={batch.id}>
            <button
              type="button"
              aria-current={batch.id === selected ? "true" : undefined}
              onClick={() => onSelect(batch.id)}
              className={`flex w-full flex-wrap items-center justify-between gap-2 px-2 py-2 text-left text-sm hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 ${batch.id === selected ? "bg-blue-50" : ""}`}
            >
              <span className="min-w-0 flex-1 truncate font-medium" title={batch.fileName}>
                {batch.fileName}
              </span>
              <span className="text-xs text-slate-600">{humanize(batch.format)}</span>
              <span className="text-xs text-slate-600">
                {recordsOf(batch).toLocaleString("en-US")} records{batch.failed ? `, ${batch.failed} failed` : ""}
              </span>
              <Badge>{batch.status}</Badge>
              <span className="text-xs text-slate-500">
                <TimeAgo value={batch.startedAt} />
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

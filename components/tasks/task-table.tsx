"use client";
import { Link } from "@/components/ui/link";
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import type { TaskListItem, TaskListPage } from "@/lib/tasks/list-tasks";
import { apiFetch } from "@/components/ui/api";
import { queryKeys, TASK_PAGE_SIZE } from "@/components/ui/query-keys";
import { SKIP_TARGET } from "@/components/ui/skip-link";
import { useInfiniteRows } from "@/components/ui/use-infinite-rows";
import { Badge, humanize } from "@/components/ui/badge";
import { ErrorText } from "@/components/ui/error-text";
import { TimeAgo } from "@/components/ui/time-ago";
import { useCan } from "@/components/auth/actor-context";
import { BulkActions } from "./bulk-actions";

const ROW_HEIGHT = 64;
const COLUMNS = "grid-cols-[2rem_minmax(14rem,2fr)_minmax(9rem,1fr)_7rem_7rem_9rem_6rem]";

type Item = Omit<TaskListItem, "createdAt" | "updatedAt"> & { createdAt: string; updatedAt: string };
type Page = Omit<TaskListPage, "items"> & { items: Item[] };

/** Every task matching the URL's filters, fetched page by page as you scroll; only visible rows are in the DOM. */
export function TaskTable({ queryString }: { queryString: string }) {
  const canEdit = useCan("tasks:edit");
  const query = useInfiniteQuery({
    queryKey: queryKeys.tasks(queryString),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams(queryString);
      params.set("limit", String(TASK_PAGE_SIZE));
      if (pageParam) params.set("cursor", pageParam);
      return apiFetch<Page>(`/api/v1/tasks?${params}`);
    },
    getNextPageParam: (last) => last.nextCursor,
    // the rows stay while a new filter's rows load: a search applied as the curator leaves the
    // box to click a row must not pull that row from under the click
    placeholderData: keepPreviousData,
  });
  const stale = query.isPlaceholderData;
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  // a selection belongs to the list it was made in: changing the filters clears it
  const [selection, setSelection] = useState<{ list: string; ids: Set<string> }>({ list: queryString, ids: new Set() });
  const selected = selection.list === queryString ? selection.ids : new Set<string>();
  const setSelected = (update: Set<string> | ((ids: Set<string>) => Set<string>)) =>
    setSelection({ list: queryString, ids: typeof update === "function" ? update(selected) : update });

  const { scrollRef, rows: virtualRows, totalSize } = useInfiniteRows(query, items.length, ROW_HEIGHT);

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allLoadedSelected = items.length > 0 && items.every((i) => selected.has(i.id));

  if (query.error) return <ErrorText error={query.error} prefix="Could not load tasks" />;
  return (
    <div className="flex flex-col gap-2">
      {canEdit && <BulkActions selected={[...selected]} onDone={() => setSelected(new Set())} />}
      <div
        role="table"
        aria-label="Tasks"
        aria-rowcount={items.length}
        aria-busy={stale}
        className={`rounded border border-slate-200 bg-white text-sm ${stale ? "opacity-70" : ""}`}
        data-testid="task-table"
      >
        <div
          role="row"
          className={`grid ${COLUMNS} items-center gap-2 border-b bg-slate-50 px-2 py-2 text-xs font-semibold text-slate-600`}
        >
          <span role="columnheader">
            {canEdit && (
              <input
                type="checkbox"
                aria-label="Select all loaded tasks"
                checked={allLoadedSelected}
                disabled={stale}
                onChange={() => setSelected(allLoadedSelected ? new Set() : new Set(items.map((i) => i.id)))}
              />
            )}
          </span>
          <span role="columnheader">Instance / problem</span>
          <span role="columnheader">Repository</span>
          <span role="columnheader">Automated</span>
          <span role="columnheader">Curation</span>
          <span role="columnheader">Failure / labels</span>
          <span role="columnheader">Created</span>
        </div>
        <div ref={scrollRef} className="h-[calc(100vh-18rem)] min-h-[20rem] overflow-auto" data-testid="task-scroll">
          {query.isLoading && <p className="p-4 text-slate-600">Loading tasks…</p>}
          {!query.isLoading && items.length === 0 && (
            <p className="p-4 text-slate-600">No task matches these filters.</p>
          )}
          <div style={{ height: totalSize, position: "relative" }} role="rowgroup">
            {virtualRows.map((row) => {
              const task = items[row.index];
              return (
                <div
                  key={task.id}
                  role="row"
                  aria-rowindex={row.index + 1}
                  data-testid="task-row"
                  className={`absolute left-0 grid w-full ${COLUMNS} items-center gap-2 border-b px-2 hover:bg-slate-50 ${selected.has(task.id) ? "bg-blue-50" : ""}`}
                  style={{ height: ROW_HEIGHT, transform: `translateY(${row.start}px)` }}
                >
                  <span role="cell">
                    {canEdit && (
                      <input
                        type="checkbox"
                        aria-label={`Select ${task.instanceId}`}
                        checked={selected.has(task.id)}
                        disabled={stale}
                        onChange={() => toggle(task.id)}
                      />
                    )}
                  </span>
                  <span role="cell" className="min-w-0">
                    <Link
                      href={`/tasks/${task.id}`}
                      className="block truncate font-mono text-blue-700 underline"
                      {...(row.index === 0 ? { [SKIP_TARGET]: "" } : {})}
                    >
                      {task.instanceId}
                    </Link>
                    <span className="block truncate text-xs text-slate-500">{task.excerpt.replace(/\s+/g, " ")}</span>
                  </span>
                  <span role="cell" className="truncate font-mono text-xs" title={task.environmentKey}>
                    {task.repository}
                  </span>
                  <span role="cell">
                    <Badge>{task.verdictOverride ?? task.automatedVerdict}</Badge>
                    {task.verdictOverride && (
                      <span className="ml-1 text-xs text-slate-500" title={`automation said ${task.automatedVerdict}`}>
                        (override)
                      </span>
                    )}
                  </span>
                  <span role="cell" className="flex flex-col items-start gap-0.5">
                    <Badge>{task.curationStatus}</Badge>
                    {task.decisionCount > 0 && (
                      <span className="text-xs text-slate-500">
                        {task.decisionCount} decision{task.decisionCount === 1 ? "" : "s"}
                      </span>
                    )}
                  </span>
                  <span role="cell" className="flex min-w-0 flex-wrap gap-1 text-xs">
                    {task.failureClass && <span className="text-red-700">{humanize(task.failureClass)}</span>}
                    {task.labels.map((l) => (
                      <span key={l} className="rounded bg-slate-200 px-1">
                        {l}
                      </span>
                    ))}
                  </span>
                  <span role="cell" className="text-xs text-slate-600">
                    <TimeAgo value={task.createdAt} />
                  </span>
                </div>
              );
            })}
          </div>
          {query.isFetchingNextPage && <p className="p-2 text-center text-xs text-slate-500">Loading more…</p>}
        </div>
      </div>
    </div>
  );
}

"use client";
import { Link } from "@/components/ui/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { TaskSource } from "@/lib/db/enums";
import type { EnvironmentListPage } from "@/lib/environments/list-environments";
import { environmentListQueryString } from "@/lib/environments/environment-query";
import { apiFetch } from "@/components/ui/api";
import { ENVIRONMENT_PAGE_SIZE, queryKeys } from "@/components/ui/query-keys";
import { SKIP_TARGET } from "@/components/ui/skip-link";
import { useInfiniteRows } from "@/components/ui/use-infinite-rows";
import { Badge, humanize } from "@/components/ui/badge";
import { ErrorText } from "@/components/ui/error-text";
import { inputClass } from "@/components/ui/field";
import { TimeAgo } from "@/components/ui/time-ago";
import type { Jsonified } from "@/components/ui/jsonified";
import { SavedViews } from "@/components/views/saved-views";

const ROW_HEIGHT = 52;
const COLUMNS = "grid-cols-[minmax(14rem,2fr)_minmax(10rem,1fr)_6rem_8rem_minmax(10rem,1fr)_7rem]";
type Page = Jsonified<EnvironmentListPage>;

/**
 * /environments: search, source and sort in the URL; rows virtualized and fetched as you
 * scroll. The page renders the first rows on the server (app/(dashboard)/environments/page.tsx).
 */
export function EnvironmentList() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const queryString = environmentListQueryString(params);
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params.toString());
    if (value) next.set(key, value);
    else next.delete(key);
    router.push(`${pathname}?${next}`, { scroll: false });
  };
  const [search, setSearch] = useState(params.get("q") ?? "");
  const query = useInfiniteQuery({
    queryKey: queryKeys.environments(queryString),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const p = new URLSearchParams(queryString);
      p.set("limit", String(ENVIRONMENT_PAGE_SIZE));
      if (pageParam) p.set("cursor", pageParam);
      return apiFetch<Page>(`/api/v1/environments?${p}`);
    },
    getNextPageParam: (last) => last.nextCursor,
  });
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const { scrollRef, rows: rows, totalSize } = useInfiniteRows(query, items.length, ROW_HEIGHT);

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <form
          role="search"
          className="flex min-w-[18rem] flex-1 flex-col text-xs font-medium text-slate-700"
          onSubmit={(e) => {
            e.preventDefault();
            set("q", search.trim());
          }}
        >
          <label htmlFor="env-search">Search environment keys and repositories (Enter)</label>
          <input
            id="env-search"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className={inputClass}
          />
        </form>
        <label className="flex flex-col text-xs font-medium text-slate-700">
          Source
          <select
            value={params.get("source") ?? ""}
            onChange={(e) => set("source", e.target.value)}
            className={inputClass}
          >
            <option value="">Any</option>
            {Object.values(TaskSource).map((s) => (
              <option key={s} value={s}>
                {humanize(s)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-xs font-medium text-slate-700">
          Sort
          <select
            value={params.get("sort") ?? "created_desc"}
            onChange={(e) => set("sort", e.target.value === "created_desc" ? "" : e.target.value)}
            className={inputClass}
          >
            <option value="created_desc">Newest first</option>
            <option value="key_asc">Key A→Z</option>
          </select>
        </label>
        <SavedViews scope="environments" basePath="/environments" currentQuery={params.toString()} />
      </div>
      <p className="text-sm font-medium" aria-live="polite">
        {query.data ? `${query.data.pages[0].total.toLocaleString("en-US")} environments` : "Loading…"}
      </p>
      <ErrorText error={query.error} />
      <div role="table" aria-label="Environments" className="rounded border border-slate-200 bg-white text-sm">
        <div
          role="row"
          className={`grid ${COLUMNS} gap-2 border-b bg-slate-50 px-2 py-2 text-xs font-semibold text-slate-600`}
        >
          <span role="columnheader">Environment</span>
          <span role="columnheader">Repository</span>
          <span role="columnheader">Revision</span>
          <span role="columnheader">Latest build</span>
          <span role="columnheader">Tasks</span>
          <span role="columnheader">Created</span>
        </div>
        <div ref={scrollRef} className="h-[calc(100vh-17rem)] min-h-[20rem] overflow-auto">
          {!query.isLoading && items.length === 0 && <p className="p-4 text-slate-600">No environment matches.</p>}
          <div style={{ height: totalSize, position: "relative" }} role="rowgroup">
            {rows.map((row) => {
              const env = items[row.index];
              return (
                <div
                  key={env.id}
                  role="row"
                  className={`absolute left-0 grid w-full ${COLUMNS} items-center gap-2 border-b px-2`}
                  style={{ height: ROW_HEIGHT, transform: `translateY(${row.start}px)` }}
                >
                  <span role="cell" className="truncate">
                    <Link
                      href={`/environments/${env.id}`}
                      className="font-mono text-blue-700 underline"
                      {...(row.index === 0 ? { [SKIP_TARGET]: "" } : {})}
                    >
                      {env.key}
                    </Link>
                  </span>
                  <span role="cell" className="truncate font-mono text-xs">
                    {env.repository}
                  </span>
                  <span role="cell" className="text-xs">
                    {env.revision ? `#${env.revision.number}` : "—"}{" "}
                    <span className="text-slate-500">of {env.revisionCount}</span>
                  </span>
                  <span role="cell">
                    {env.latestBuild ? (
                      <Badge>{env.latestBuild.status}</Badge>
                    ) : (
                      <span className="text-xs text-slate-500">never built</span>
                    )}
                  </span>
                  <span role="cell" className="flex flex-wrap gap-1 text-xs">
                    <Link href={`/tasks?environment=${encodeURIComponent(env.id)}`} className="text-blue-700 underline">
                      {env.taskCount} task{env.taskCount === 1 ? "" : "s"}
                    </Link>
                    {Object.entries(env.tasksByStatus).map(([status, count]) => (
                      <span key={status} className="text-slate-500">
                        {humanize(status)} {count}
                      </span>
                    ))}
                  </span>
                  <span role="cell" className="text-xs text-slate-600">
                    <TimeAgo value={env.createdAt} />
                  </span>
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}

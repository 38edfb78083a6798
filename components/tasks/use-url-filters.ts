"use client";
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo, useState } from "react";
import { filtersFromSearchParams, filtersToSearchParams, type TaskFilters } from "@/lib/tasks/task-filters";

/**
 * The task list's filters live in the URL (shareable, and the back button undoes a change):
 * reading parses the search params, writing pushes a new history entry. The page renders
 * the first list on the server (app/(dashboard)/tasks/page.tsx); later changes fetch in the browser.
 */
export function useUrlFilters() {
  const params = useSearchParams();
  const pathname = usePathname();
  const current = params.toString();
  const urlFilters = useMemo(() => filtersFromSearchParams(new URLSearchParams(current)), [current]);
  // a change shows at once (a checkbox ticks on click); the URL catches up after navigation,
  // and from then on (or after Back) the URL is the truth again
  const [optimistic, setOptimistic] = useState<TaskFilters | null>(null);
  const [seenUrl, setSeenUrl] = useState(current);
  if (seenUrl !== current) {
    setSeenUrl(current);
    setOptimistic(null);
  }
  const filters = seenUrl === current && optimistic ? optimistic : urlFilters;
  const queryString = useMemo(() => filtersToSearchParams(filters).toString(), [filters]);
  const setFilters = useCallback(
    (
      change: Partial<TaskFilters> | ((current: TaskFilters) => Partial<TaskFilters>),
      options: { replace?: boolean } = {},
    ) => {
      const next = { ...filters, ...(typeof change === "function" ? change(filters) : change) };
      setOptimistic(next);
      const qs = filtersToSearchParams(next).toString();
      const href = qs ? `${pathname}?${qs}` : pathname;
      // the browser's own history API (Next keeps useSearchParams in step): the list refetches
      // its rows itself, so a filter change must not re-render the page on the server, which
      // would also race a click on a row made meanwhile
      if (options.replace) window.history.replaceState(null, "", href);
      else window.history.pushState(null, "", href);
    },
    [filters, pathname],
  );
  return { filters, queryString, setFilters };
}

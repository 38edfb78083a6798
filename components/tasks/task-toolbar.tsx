"use client";
import { useEffect, useState } from "react";
import {
  TASK_SORT_LABELS,
  TASK_SORTS,
  countActiveFilters,
  emptyTaskFilters,
  type TaskFilters,
  type TaskSort,
} from "@/lib/tasks/task-filters";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { SavedViews } from "@/components/views/saved-views";
import { describeSlice } from "@/lib/analytics/slice-key";

const SEARCH_DEBOUNCE_MS = 400;

/** Search, sort, dates, label and assignee filters above the task list. */
export function TaskToolbar({
  filters,
  queryString,
  onChange,
  total,
}: {
  filters: TaskFilters;
  queryString: string;
  onChange: (change: Partial<TaskFilters>) => void;
  total: number | undefined;
}) {
  const [search, setSearch] = useState(filters.q ?? "");
  const [label, setLabel] = useState("");
  const urlQuery = filters.q ?? "";
  // the URL is the truth: going back restores the search box
  const [shownUrlQuery, setShownUrlQuery] = useState(urlQuery);
  if (shownUrlQuery !== urlQuery) {
    setShownUrlQuery(urlQuery);
    setSearch(urlQuery);
  }
  useEffect(() => {
    if (search.trim() === urlQuery) return;
    const timer = setTimeout(() => onChange({ q: search.trim() || undefined }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search, urlQuery, onChange]);

  const active = countActiveFilters(filters);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-end gap-3">
        <form
          role="search"
          className="flex min-w-[18rem] flex-1 flex-col text-xs"
          onSubmit={(e) => {
            e.preventDefault();
            onChange({ q: search.trim() || undefined });
          }}
        >
          <label htmlFor="task-search" className="font-medium text-slate-700">
            Search instance ids and problem statements
          </label>
          <input
            id="task-search"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            // leaving the box (to click a row, say) applies the search at once: a search still
            // waiting for its debounce would otherwise land after, and undo, that click's navigation
            onBlur={() => search.trim() !== urlQuery && onChange({ q: search.trim() || undefined })}
            placeholder='e.g. ZeroDivisionError or "empty list"'
            className={inputClass}
          />
        </form>
        <label className="flex flex-col text-xs font-medium text-slate-700">
          Sort
          <select
            value={filters.sort}
            onChange={(e) => onChange({ sort: e.target.value as TaskSort })}
            className={inputClass}
          >
            {TASK_SORTS.map((s) => (
              <option key={s} value={s}>
                {TASK_SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-xs font-medium text-slate-700">
          Created from
          <input
            type="date"
            value={filters.createdFrom ?? ""}
            onChange={(e) => onChange({ createdFrom: e.target.value || undefined })}
            className={inputClass}
          />
        </label>
        <label className="flex flex-col text-xs font-medium text-slate-700">
          Created to
          <input
            type="date"
            value={filters.createdTo ?? ""}
            onChange={(e) => onChange({ createdTo: e.target.value || undefined })}
            className={inputClass}
          />
        </label>
        <label className="flex flex-col text-xs font-medium text-slate-700">
          Assignee
          <select
            value={filters.assignee ?? ""}
            onChange={(e) => onChange({ assignee: e.target.value || undefined })}
            className={inputClass}
          >
            <option value="">Anyone</option>
            <option value="me">Me</option>
            <option value="none">Unassigned</option>
          </select>
        </label>
        <form
          className="flex flex-col text-xs font-medium text-slate-700"
          onSubmit={(e) => {
            e.preventDefault();
            if (label.trim() && !filters.label.includes(label.trim()))
              onChange({ label: [...filters.label, label.trim()] });
            setLabel("");
          }}
        >
          <label htmlFor="label-filter">Label</label>
          <input
            id="label-filter"
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            placeholder="Enter to add"
            className={`${inputClass} w-32`}
          />
        </form>
        <SavedViews scope="tasks" basePath="/tasks" currentQuery={queryString} />
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium" data-testid="task-total" aria-live="polite">
          {total === undefined ? "Counting…" : `${total.toLocaleString()} task${total === 1 ? "" : "s"}`}
        </span>
        {filters.slice && (
          <button
            type="button"
            onClick={() => onChange({ slice: undefined })}
            className="rounded-full bg-indigo-100 px-2 text-xs"
            data-testid="slice-chip"
            aria-label="Remove the analytics filter"
          >
            analytics — {describeSlice(filters.slice)} ×
          </button>
        )}
        {filters.label.map((l) => (
          <button
            key={l}
            type="button"
            onClick={() => onChange({ label: filters.label.filter((x) => x !== l) })}
            className="rounded-full bg-slate-200 px-2 text-xs"
            aria-label={`Remove label filter ${l}`}
          >
            label: {l} ×
          </button>
        ))}
        {active > 0 && (
          <Button size="sm" variant="ghost" onClick={() => onChange({ ...emptyTaskFilters(), sort: filters.sort })}>
            Clear {active} filter{active === 1 ? "" : "s"}
          </Button>
        )}
      </div>
    </div>
  );
}

"use client";
import { useQuery } from "@tanstack/react-query";
import {
  AutomatedVerdict,
  CurationStatus,
  DecisionReason,
  Difficulty,
  FailureClass,
  ReviewerDecision,
  TaskKind,
  TaskSource,
} from "@/lib/db/enums";
import { NONE, type TaskFilters, type TaskListFilterKey } from "@/lib/tasks/task-filters";
import type { TaskFacets } from "@/lib/tasks/task-facets";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { humanize } from "@/components/ui/badge";

type FacetGroup = { key: TaskListFilterKey; title: string; values: string[]; counted: boolean };

const GROUPS: FacetGroup[] = [
  { key: "status", title: "Curation status", values: Object.values(CurationStatus), counted: true },
  { key: "verdict", title: "Automated verdict", values: Object.values(AutomatedVerdict), counted: true },
  { key: "failureClass", title: "Failure class", values: [...Object.values(FailureClass), NONE], counted: true },
  { key: "source", title: "Source", values: Object.values(TaskSource), counted: true },
  { key: "kind", title: "Kind", values: Object.values(TaskKind), counted: true },
  { key: "difficulty", title: "Difficulty", values: [...Object.values(Difficulty), NONE], counted: true },
  {
    key: "reviewerDecision",
    title: "Reviewer agent",
    values: [...Object.values(ReviewerDecision), NONE],
    counted: false,
  },
  { key: "reason", title: "Reason cited by a curator", values: Object.values(DecisionReason), counted: false },
];

export function useTaskFacets(queryString: string) {
  return useQuery({
    queryKey: queryKeys.taskFacets(queryString),
    queryFn: () => apiFetch<TaskFacets>(`/api/v1/tasks/facets?${queryString}`),
    placeholderData: (previous) => previous,
  });
}

/** Filters with how many tasks each value would show (each facet counted under the other filters). */
export function FacetSidebar({
  filters,
  queryString,
  onChange,
}: {
  filters: TaskFilters;
  queryString: string;
  onChange: (change: Partial<TaskFilters>) => void;
}) {
  const { data } = useTaskFacets(queryString);
  const toggle = (key: TaskListFilterKey, value: string) => {
    const current = filters[key] as string[];
    onChange({
      [key]: current.includes(value) ? current.filter((v) => v !== value) : [...current, value],
    } as Partial<TaskFilters>);
  };
  return (
    <aside aria-label="Filters" className="flex flex-col gap-4 text-sm">
      {GROUPS.map((group) => {
        const counts = group.counted ? (data?.facets[group.key as keyof TaskFacets["facets"]] ?? {}) : null;
        const chosen = filters[group.key] as string[];
        return (
          <fieldset key={group.key}>
            <legend className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{group.title}</legend>
            {group.values.map((value) => {
              const count = counts?.[value] ?? 0;
              const checked = chosen.includes(value);
              if (counts && count === 0 && !checked) return null;
              return (
                <label
                  key={value}
                  className="flex cursor-pointer items-center gap-2 rounded px-1 py-0.5 hover:bg-slate-100"
                >
                  <input
                    type="checkbox"
                    checked={checked}
                    onChange={() => toggle(group.key, value)}
                    data-facet={`${group.key}:${value}`}
                  />
                  <span className="flex-1">
                    {value === NONE ? <em className="text-slate-500">none</em> : humanize(value)}
                  </span>
                  {counts && <span className="tabular-nums text-xs text-slate-500">{count.toLocaleString()}</span>}
                </label>
              );
            })}
          </fieldset>
        );
      })}
      <fieldset>
        <legend className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Repository</legend>
        {filters.repository
          .filter((r) => !data?.repositories.some((x) => x.repository === r))
          .map((r) => (
            <label key={r} className="flex items-center gap-2 px-1 py-0.5">
              <input type="checkbox" checked onChange={() => toggle("repository", r)} />
              <span className="flex-1 truncate font-mono text-xs">{r}</span>
            </label>
          ))}
        {data?.repositories.map(({ repository, count }) => (
          <label
            key={repository}
            className="flex cursor-pointer items-center gap-2 rounded px-1 py-0.5 hover:bg-slate-100"
          >
            <input
              type="checkbox"
              checked={filters.repository.includes(repository)}
              onChange={() => toggle("repository", repository)}
            />
            <span className="flex-1 truncate font-mono text-xs" title={repository}>
              {repository}
            </span>
            <span className="tabular-nums text-xs text-slate-500">{count.toLocaleString()}</span>
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Human decision</legend>
        {(
          [
            ["", "Any"],
            ["yes", "Decided by a curator"],
            ["no", "No decision yet"],
          ] as const
        ).map(([value, text]) => (
          <label key={value} className="flex cursor-pointer items-center gap-2 rounded px-1 py-0.5 hover:bg-slate-100">
            <input
              type="radio"
              name="decided"
              checked={(filters.decided ?? "") === value}
              onChange={() => onChange({ decided: value || undefined })}
            />
            {text}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Releases</legend>
        <label className="flex cursor-pointer items-center gap-2 rounded px-1 py-0.5 hover:bg-slate-100">
          <input
            type="checkbox"
            checked={filters.flipped === "yes"}
            onChange={(e) => onChange({ flipped: e.target.checked ? "yes" : undefined })}
          />
          Verdict flipped since the last release
        </label>
      </fieldset>
    </aside>
  );
}

"use client";
import { useUrlFilters } from "./use-url-filters";
import { FacetSidebar, useTaskFacets } from "./facet-sidebar";
import { TaskToolbar } from "./task-toolbar";
import { TaskTable } from "./task-table";

/** /tasks: filters in a sidebar, search and sort above, the virtualized list; all state in the URL. */
export function TaskListPage() {
  const { filters, queryString, setFilters } = useUrlFilters();
  const facets = useTaskFacets(queryString);
  return (
    <div className="grid grid-cols-[14rem_1fr] gap-6">
      <FacetSidebar filters={filters} queryString={queryString} onChange={setFilters} />
      <div className="flex min-w-0 flex-col gap-3">
        <TaskToolbar filters={filters} queryString={queryString} onChange={setFilters} total={facets.data?.total} />
        <TaskTable queryString={queryString} />
      </div>
    </div>
  );
}

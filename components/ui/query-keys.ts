// The TanStack Query keys of data a page may render on the server first: one definition,
// used by the server page that fills the cache and by the client component that reads it.

export const TASK_PAGE_SIZE = 100;

export const queryKeys = {
  task: (idOrInstanceId: string) => ["task", idOrInstanceId],
  taskValidations: (taskId: string) => ["task-validations", taskId],
  taskHistory: (taskId: string, version: number) => ["task-history", taskId, version],
  /** the task list for a canonical filter query string (filtersToSearchParams) */
  tasks: (queryString: string) => ["tasks", queryString],
  taskFacets: (queryString: string) => ["task-facets", queryString],
};

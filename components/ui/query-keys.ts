// The TanStack Query keys of data a page may render on the server first: one definition,
// used by the server page that fills the cache and by the client component that reads it.

export const TASK_PAGE_SIZE = 100;

export const queryKeys = {
  task: (idOrInstanceId: string) => ["task", idOrInstanceId],
  taskValidations: (taskId: string) => ["task-validations", taskId],
  taskHistory: (taskId: string, version: number) => ["task-history", taskId, version],
  /** each test against every run that touched it (GET /api/v1/tasks/:id/evidence) */
  taskEvidence: (taskId: string) => ["task-evidence", taskId],
  /** one validation run with its stored log (GET /api/v1/runs/:id) */
  run: (runId: string) => ["run", runId],
  /** one file of the task's repository at the base commit (GET /api/v1/tasks/:id/base-files?path=) */
  baseFile: (taskId: string, path: string) => ["base-file", taskId, path],
  /** the task list for a canonical filter query string (filtersToSearchParams) */
  tasks: (queryString: string) => ["tasks", queryString],
  taskFacets: (queryString: string) => ["task-facets", queryString],
  trajectory: (id: string) => ["trajectory", id],
  /** steps of every trajectory matching a search (crossSearchQueryString), an infinite list */
  trajectorySearch: (queryString: string) => ["trajectory-search", queryString],
  /** the failed trajectories' clusters for a filter query string */
  trajectoryClusters: (queryString: string) => ["trajectory-clusters", queryString],
  /** the matching steps inside one trajectory (GET /api/v1/trajectories/:id/search) */
  trajectoryStepSearch: (trajectoryId: string, kind: string | null, q: string, regex: boolean) => [
    "trajectory-step-search",
    trajectoryId,
    kind ?? "ALL",
    q,
    regex,
  ],
  /** one step in full (the inspector's detail pane) */
  trajectoryStep: (trajectoryId: string, index: number) => ["trajectory-step", trajectoryId, index],
  /** the latest replay of each replayed step (GET /api/v1/trajectories/:id/replays) */
  trajectoryReplays: (trajectoryId: string) => ["trajectory-replays", trajectoryId],
  /** one block of TRAJECTORY_WINDOW rows of the step list, unfiltered ("ALL") or of one kind */
  trajectoryWindow: (trajectoryId: string, kind: string | null, block: number) => [
    "trajectory-window",
    trajectoryId,
    kind ?? "ALL",
    block,
  ],
  /** the environment list for a canonical filter query string (environmentListQueryString) */
  environments: (queryString: string) => ["environments", queryString],
  /** one environment by the id or key in its URL */
  environment: (idOrKey: string) => ["environment", idOrKey],
  environmentBuilds: (environmentId: string) => ["environment-builds", environmentId],
  jobs: () => ["jobs"],
  dockerAvailability: () => ["docker-availability"],
  /** the import history (also the prefix of every batch's own key) */
  imports: () => ["imports"],
  /** every reviewer's score (all pages of GET /api/v1/reviewers/scores) */
  reviewerScores: () => ["reviewer-scores"],
  /** curator agreement for decisions since a day (YYYY-MM-DD), or all of them ("") */
  agreement: (since: string) => ["agreement", since],
  curationSettings: () => ["curation-settings"],
  /** the campaigns the reader labels (all pages of GET /api/v1/campaigns) */
  campaigns: () => ["campaigns"],
  campaign: (id: string) => ["campaign", id],
  /** every user (all pages of GET /api/v1/users) */
  users: () => ["users"],
  /** the reader's own API tokens (all pages of GET /api/v1/tokens) */
  tokens: () => ["tokens"],
  /** every rubric at its latest version (all pages of GET /api/v1/campaigns/rubrics) */
  rubrics: () => ["rubrics"],
  trajectoryLabels: () => ["trajectory-labels"],
  /** the first TRAJECTORY_LABEL_STEPS steps given a label */
  trajectoryLabelSteps: (label: string | null) => ["trajectory-label-steps", label],
  trajectoryCompare: (a: string, b: string) => ["trajectory-compare", a, b],
  /** the compare picker's lists: trajectories near one (its task first) matching a search */
  compareCandidates: (near: string, q: string) => ["compare-candidates", near, q],
  /** an analytics page's figures for a canonical filter query string (analyticsQueryString); without arguments, the prefix of every page's */
  analytics: (page?: string, queryString?: string) =>
    page === undefined ? ["analytics"] : ["analytics", page, queryString ?? ""],
};

/** Rows per page of the environment list. */
export const ENVIRONMENT_PAGE_SIZE = 100;

/** Batches the import history shows. */
export const IMPORT_HISTORY_SIZE = 25;

/** Rows per window of the trajectory inspector's step list (a block of the virtual list asked for at once). */
export const TRAJECTORY_WINDOW = 100;

/** Steps the label page lists for one label. */
export const TRAJECTORY_LABEL_STEPS = 200;

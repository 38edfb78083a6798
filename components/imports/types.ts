// The ImportBatch as /api/v1/imports returns it (bigints arrive as numbers).
export type ImportError = { line: number | null; key?: string; reason: string };

export type ImportBatchView = {
  id: string;
  fileName: string;
  format: string;
  status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "PARTIAL" | "FAILED" | "CANCELLED";
  bytesTotal: number | null;
  bytesRead: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  errorMessage: string | null;
  /** what the file or folder was read as ("read as a SWE-bench evaluation run: …"), and notes for the whole batch */
  summary?: string | null;
  /** tasks the batch wrote per environment source (IMAGE, RECIPE, SPEC, NONE), once it finished */
  environmentSources?: Record<string, number> | null;
  cancelRequested: boolean;
  startedAt: string;
  finishedAt: string | null;
  updatedAt: string;
  /** how many workers have taken it (more than one: an earlier worker stopped and it resumed) */
  attempts: number;
  user: { name: string | null; email: string } | null;
  errors?: ImportError[];
};

/** Still in the queue or importing: the page keeps polling it. */
export const isActive = (b: Pick<ImportBatchView, "status">) => b.status === "QUEUED" || b.status === "RUNNING";

export const recordsOf = (b: Pick<ImportBatchView, "created" | "updated" | "unchanged" | "failed">) =>
  b.created + b.updated + b.unchanged + b.failed;

/** Records per second over the import so far (or its whole run once finished). */
export function recordsPerSecond(b: ImportBatchView, now = Date.now()): number {
  const end = b.finishedAt ? new Date(b.finishedAt).getTime() : now;
  const seconds = Math.max((end - new Date(b.startedAt).getTime()) / 1000, 0.001);
  return recordsOf(b) / seconds;
}

export const formatBytes = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} B`;

// The ImportBatch as /api/v1/imports returns it (bigints arrive as numbers).
export type ImportError = { line: number | null; key?: string; reason: string };

export type ImportBatchView = {
  id: string;
  fileName: string;
  format: string;
  status: "RUNNING" | "SUCCEEDED" | "PARTIAL" | "FAILED" | "CANCELLED";
  bytesTotal: number | null;
  bytesRead: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  errorMessage: string | null;
  cancelRequested: boolean;
  startedAt: string;
  finishedAt: string | null;
  updatedAt: string;
  user: { name: string | null; email: string } | null;
  errors?: ImportError[];
};

export const recordsOf = (b: Pick<ImportBatchView, "created" | "updated" | "unchanged" | "failed">) => b.created + b.updated + b.unchanged + b.failed;

/** Records per second over the import so far (or its whole run once finished). */
export function recordsPerSecond(b: ImportBatchView, now = Date.now()): number {
  const end = b.finishedAt ? new Date(b.finishedAt).getTime() : now;
  const seconds = Math.max((end - new Date(b.startedAt).getTime()) / 1000, 0.001);
  return recordsOf(b) / seconds;
}

export const formatBytes = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} B`);

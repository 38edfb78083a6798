// An import batch as the CLI prints it, read from the API (JSON) or straight from the database:
// `import` reports the batches it ran and `status` the ones it is asked about, in the same words.

/** The fields of an import batch that both commands print. */
export type BatchView = {
  id: string;
  fileName: string;
  format: string;
  status: string;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  errorMessage: string | null;
  errors?: unknown;
};

type RecordError = { line: number | null; key?: string; reason: string };

export const countsText = (batch: BatchView) =>
  `created=${batch.created} updated=${batch.updated} unchanged=${batch.unchanged} failed=${batch.failed}`;

/** The records the batch could not import (none when it kept no list). */
export const recordErrors = (batch: BatchView) => (Array.isArray(batch.errors) ? batch.errors : []) as RecordError[];

/** Where a record failed (its line, else its key) and why. */
export const recordErrorText = (error: RecordError) =>
  `${error.line ? `line ${error.line}` : (error.key ?? "record")}${error.line && error.key ? ` (${error.key})` : ""}: ${error.reason}`;

"use client";
import { Badge, humanize } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { TimeAgo } from "@/components/ui/time-ago";
import { useCan } from "@/components/auth/actor-context";
import { useCancelImport, useImportBatch } from "./use-import-batch";
import { formatBytes, isActive, recordsOf, recordsPerSecond, type ImportBatchView } from "./types";

function ProgressBar({ batch }: { batch: ImportBatchView }) {
  const percent = batch.bytesTotal
    ? Math.min(100, Math.round((batch.bytesRead / batch.bytesTotal) * 100))
    : isActive(batch)
      ? null
      : 100;
  return (
    <div className="mt-3">
      <div className="mb-1 flex flex-wrap justify-between gap-2 text-sm">
        <span data-testid="import-rate">
          {recordsOf(batch).toLocaleString("en-US")} records ·{" "}
          {Math.round(recordsPerSecond(batch)).toLocaleString("en-US")} records/s
        </span>
        <span>
          {formatBytes(batch.bytesRead)}
          {batch.bytesTotal ? ` of ${formatBytes(batch.bytesTotal)}` : ""}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={percent === null ? "working" : `${percent}%`}
        className="h-2 overflow-hidden rounded bg-slate-200"
      >
        <div
          className={`h-full ${isActive(batch) ? "bg-blue-600" : batch.failed ? "bg-amber-500" : "bg-green-600"} transition-all`}
          style={{ width: `${percent ?? 30}%` }}
        />
      </div>
    </div>
  );
}

function Counts({ batch }: { batch: ImportBatchView }) {
  const cells: [string, number][] = [
    ["Created", batch.created],
    ["Updated", batch.updated],
    ["Unchanged", batch.unchanged],
    ["Failed", batch.failed],
  ];
  return (
    <dl className="mt-3 grid grid-cols-4 gap-2 text-center">
      {cells.map(([label, value]) => (
        <div key={label} className="rounded border border-slate-200 px-2 py-1">
          <dt className="text-xs text-slate-600">{label}</dt>
          <dd
            className={`text-lg font-semibold ${label === "Failed" && value ? "text-red-700" : ""}`}
            data-testid={`count-${label.toLowerCase()}`}
          >
            {value.toLocaleString("en-US")}
          </dd>
        </div>
      ))}
    </dl>
  );
}

const SOURCE_WORDS: Record<string, string> = {
  IMAGE: "a published image",
  SPEC: "a harness spec",
  RECIPE: "a recipe",
  NONE: "no environment yet (no Validate until one is chosen)",
};

/** Per batch: how many of its tasks got which environment source. */
function EnvironmentSources({ batch }: { batch: ImportBatchView }) {
  const sources = Object.entries(batch.environmentSources ?? {}).filter(([, n]) => n > 0);
  if (!sources.length) return null;
  return (
    <p className="mt-3 text-sm text-slate-700" data-testid="import-environment-sources">
      Environments:{" "}
      {sources
        .map(
          ([source, n]) =>
            `${n.toLocaleString("en-US")} ${n === 1 ? "task" : "tasks"} with ${SOURCE_WORDS[source] ?? source}`,
        )
        .join(", ")}
      .
    </p>
  );
}

function ErrorsTable({ batch }: { batch: ImportBatchView }) {
  const errors = batch.errors ?? [];
  if (!errors.length) return null;
  return (
    <div className="mt-4">
      <h3 className="mb-1 text-sm font-medium">
        Records that were not imported
        {batch.failed > errors.length ? ` (first ${errors.length} of ${batch.failed})` : ""}
      </h3>
      <div className="max-h-80 overflow-auto rounded border border-slate-200">
        <table className="w-full text-left text-sm">
          <thead className="sticky top-0 bg-slate-50 text-xs text-slate-600">
            <tr>
              <th scope="col" className="px-2 py-1">
                Line
              </th>
              <th scope="col" className="px-2 py-1">
                Record
              </th>
              <th scope="col" className="px-2 py-1">
                Why
              </th>
            </tr>
          </thead>
          <tbody>
            {errors.map((error, i) => (
              <tr key={i} className="border-t border-slate-100 align-top">
                <td className="px-2 py-1 font-mono">{error.line ?? "—"}</td>
                <td className="px-2 py-1 font-mono text-xs break-all">{error.key ?? ""}</td>
                <td className="px-2 py-1">{error.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** The selected import: live progress while it runs, then its report. */
export function BatchReport({ batchId }: { batchId: string }) {
  const query = useImportBatch(batchId);
  const cancel = useCancelImport(batchId);
  const mayImport = useCan("imports:run");
  const batch = query.data;
  if (query.error) return <ErrorText error={query.error} />;
  if (!batch) return <p className="text-sm text-slate-600">Loading the import…</p>;
  return (
    <section
      aria-labelledby="report-heading"
      aria-live="polite"
      className="rounded border border-slate-200 bg-white p-4"
      data-testid="import-report"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="report-heading" className="font-medium break-all">
          {batch.fileName}
        </h2>
        <div className="flex items-center gap-2">
          <Badge>{batch.status}</Badge>
          <Badge tone="purple">{humanize(batch.format)}</Badge>
          {isActive(batch) && mayImport ? (
            <Button
              size="sm"
              variant="danger"
              onClick={() => cancel.mutate()}
              disabled={cancel.isPending || batch.cancelRequested}
            >
              {batch.cancelRequested ? "Cancelling…" : "Cancel import"}
            </Button>
          ) : null}
        </div>
      </div>
      <p className="mt-1 text-xs text-slate-600">
        Started <TimeAgo value={batch.startedAt} />
        {batch.user ? ` by ${batch.user.name ?? batch.user.email}` : ""}
        {batch.finishedAt ? (
          <>
            , finished <TimeAgo value={batch.finishedAt} />
          </>
        ) : null}
      </p>
      {batch.status === "QUEUED" ? (
        <p className="mt-2 text-sm text-slate-700" data-testid="import-queued">
          {batch.attempts
            ? "Waiting for a worker to resume it from its last checkpoint…"
            : "Stored; waiting for a worker to import it…"}
        </p>
      ) : null}
      {batch.status === "RUNNING" && batch.attempts > 1 ? (
        <p className="mt-2 text-sm text-slate-700">Resumed by another worker (attempt {batch.attempts}).</p>
      ) : null}
      <ProgressBar batch={batch} />
      <Counts batch={batch} />
      {batch.summary ? (
        <p className="mt-3 text-sm text-slate-700" data-testid="import-summary">
          {batch.summary}
        </p>
      ) : null}
      <EnvironmentSources batch={batch} />
      {batch.errorMessage ? (
        <p
          className={`mt-3 rounded px-3 py-2 text-sm ${batch.status === "CANCELLED" ? "bg-slate-100 text-slate-700" : "bg-red-50 text-red-800"}`}
        >
          {batch.errorMessage}
        </p>
      ) : null}
      <ErrorText error={cancel.error} prefix="Cancel" />
      <ErrorsTable batch={batch} />
    </section>
  );
}

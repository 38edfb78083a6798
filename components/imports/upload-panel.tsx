"use client";
import { useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { importAcceptList } from "@/lib/imports/importable-files";
import { importKeys, uploadFile, useImportBatch, type UploadOptions } from "./use-import-batch";
import { formatBytes, isActive, recordsOf } from "./types";

const SOURCES = ["", "SWE_BENCH", "SWE_GYM", "SWE_SMITH", "SWE_REBENCH", "OPENSWE", "SWE_FLOW", "OTHER"];
const ACCEPT = importAcceptList();
const ACCEPTED = ACCEPT.split(",");
// React's types do not know the folder picker's attribute; the browsers that have it read it as a boolean
const FOLDER_PICKER = { webkitdirectory: "", directory: "" } as Record<string, string>;

type UploadRow = {
  key: string;
  name: string;
  loaded: number;
  total: number;
  batchId?: string;
  error?: string;
  skipped?: boolean;
};

const importable = (file: File) => ACCEPTED.some((extension) => file.name.toLowerCase().endsWith(extension));

/** What became of one file once uploaded: imported (with its counts) or refused, in a sentence. */
function BatchOutcome({ batchId }: { batchId: string }) {
  const { data: batch } = useImportBatch(batchId);
  if (!batch || isActive(batch))
    return <span>Importing…{batch ? ` ${recordsOf(batch).toLocaleString("en-US")} records` : ""}</span>;
  const counts = `${batch.created} created, ${batch.updated} updated, ${batch.unchanged} unchanged${batch.failed ? `, ${batch.failed} failed` : ""}`;
  if (batch.status === "SUCCEEDED") return <span className="text-green-800">Imported: {counts}</span>;
  if (batch.status === "PARTIAL") return <span className="text-amber-800">Imported in part: {counts}</span>;
  if (batch.status === "CANCELLED") return <span>Cancelled</span>;
  return <span className="text-red-700">Refused: {batch.errorMessage ?? "the import failed"}</span>;
}

/** One file's row: its upload's progress, then what its import did. */
function UploadRowView({ row }: { row: UploadRow }) {
  const percent = row.total ? Math.round((row.loaded / row.total) * 100) : 0;
  return (
    <li className="grid gap-1 border-t border-slate-100 py-2 first:border-t-0" data-testid="upload-row">
      <div className="flex flex-wrap justify-between gap-2">
        <span className="font-medium">{row.name}</span>
        <span data-testid="upload-outcome">
          {row.skipped ? (
            <span className="text-slate-600">Skipped: not a file an import reads ({ACCEPT})</span>
          ) : row.error ? (
            <span className="text-red-700">Refused: {row.error}</span>
          ) : row.batchId ? (
            <BatchOutcome batchId={row.batchId} />
          ) : (
            `Uploading ${percent}% (${formatBytes(row.loaded)} of ${formatBytes(row.total)})`
          )}
        </span>
      </div>
      {!row.skipped && !row.error && (
        <div
          role="progressbar"
          aria-label={`Upload of ${row.name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={row.batchId ? 100 : percent}
          className="h-1.5 overflow-hidden rounded bg-slate-200"
        >
          <div className="h-full bg-blue-600 transition-all" style={{ width: `${row.batchId ? 100 : percent}%` }} />
        </div>
      )}
    </li>
  );
}

/** Drop files or a folder here (or choose them): each is uploaded as a stream and imported, with its own row; the latest report opens below. */
export function UploadPanel({ onStarted }: { onStarted: (batchId: string) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [rows, setRows] = useState<UploadRow[]>([]);
  const [busy, setBusy] = useState(false);
  const [options, setOptions] = useState<UploadOptions>({});
  const client = useQueryClient();
  const patch = (key: string, change: Partial<UploadRow>) =>
    setRows((all) => all.map((r) => (r.key === key ? { ...r, ...change } : r)));

  /** One after another: each upload gets the connection to itself, so its percentage means something. */
  const start = async (list: FileList | null, fromFolder = false) => {
    const files = [...(list ?? [])];
    if (!files.length || busy) return;
    const batch = files.map((file, i) => ({
      file,
      row: {
        key: `${Date.now()}-${i}`,
        name: file.webkitRelativePath || file.name,
        loaded: 0,
        total: file.size,
        skipped: fromFolder && !importable(file),
      },
    }));
    setRows(batch.map((b) => b.row));
    setBusy(true);
    for (const { file, row } of batch.filter((b) => !b.row.skipped)) {
      try {
        const created = await uploadFile(file, options, (loaded, total) => patch(row.key, { loaded, total }));
        client.setQueryData(importKeys.one(created.id), created);
        patch(row.key, { batchId: created.id });
        onStarted(created.id);
      } catch (error) {
        patch(row.key, { error: (error as Error).message });
      }
    }
    setBusy(false);
    void client.invalidateQueries({ queryKey: importKeys.all });
  };

  return (
    <section aria-labelledby="upload-heading" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="upload-heading" className="mb-3 font-medium">
        Import files
      </h2>
      <label
        htmlFor="import-file"
        data-testid="drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          void start(event.dataTransfer.files);
        }}
        className={`flex cursor-pointer flex-col items-center justify-center rounded border-2 border-dashed px-4 py-8 text-center text-sm ${dragging ? "border-blue-600 bg-blue-50" : "border-slate-300 bg-slate-50"} focus-within:ring-2 focus-within:ring-blue-500`}
      >
        <span className="font-medium text-slate-800">Drop files here, or choose them</span>
        <span className="mt-1 text-xs text-slate-600">
          SWE-bench instances or predictions (JSON/JSONL, Parquet), harness report.json or logs, OpenSWE rows or
          environment folders (.zip/.tar), SWE-Flow steps, SWE-agent .traj, OpenHands, Inspect logs (.eval, JSON),
          reviewer verdicts — the format is detected. Several files at once: each is its own import.
        </span>
        <input
          id="import-file"
          ref={input}
          type="file"
          multiple
          accept={ACCEPT}
          className="sr-only"
          disabled={busy}
          onChange={(event) => {
            void start(event.target.files);
            event.target.value = "";
          }}
        />
      </label>
      <input
        ref={folderInput}
        type="file"
        aria-label="Choose a folder to import"
        className="sr-only"
        tabIndex={-1}
        disabled={busy}
        {...FOLDER_PICKER}
        onChange={(event) => {
          void start(event.target.files, true);
          event.target.value = "";
        }}
      />
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer text-slate-700">Options for files that do not say</summary>
        <div className="mt-2 grid gap-3 sm:grid-cols-3">
          <label className="flex flex-col gap-1">
            <span className="text-xs font-medium text-slate-700">Dataset</span>
            <select
              className="rounded border border-slate-300 px-2 py-1"
              value={options.source ?? ""}
              onChange={(e) => setOptions({ ...options, source: e.target.value || undefined })}
            >
              {SOURCES.map((s) => (
                <option key={s} value={s}>
                  {s || "detect from the rows"}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-xs font-medium text-slate-700">Generator (model_name_or_path)</span>
            <input
              className="rounded border border-slate-300 px-2 py-1"
              value={options.generator ?? ""}
              onChange={(e) => setOptions({ ...options, generator: e.target.value || undefined })}
            />
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-xs font-medium text-slate-700">Instance id (for a lone log or report)</span>
            <input
              className="rounded border border-slate-300 px-2 py-1"
              value={options.instanceId ?? ""}
              onChange={(e) => setOptions({ ...options, instanceId: e.target.value || undefined })}
            />
          </label>
        </div>
      </details>
      {rows.length > 0 && (
        <ul className="mt-3 text-sm" aria-live="polite" aria-label="Uploads">
          {rows.map((row) => (
            <UploadRowView key={row.key} row={row} />
          ))}
        </ul>
      )}
      <div className="mt-2 flex gap-2">
        <Button size="sm" onClick={() => input.current?.click()} disabled={busy}>
          Choose files…
        </Button>
        <Button size="sm" onClick={() => folderInput.current?.click()} disabled={busy}>
          Choose a folder…
        </Button>
      </div>
    </section>
  );
}

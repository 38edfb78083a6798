"use client";
import { useRef, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { importKeys, uploadFile, type UploadOptions } from "./use-import-batch";
import { formatBytes } from "./types";

const SOURCES = ["", "SWE_BENCH", "SWE_GYM", "SWE_SMITH", "SWE_REBENCH", "OPENSWE", "SWE_FLOW", "OTHER"];
const ACCEPT = ".json,.jsonl,.traj,.log,.txt,.zip,.tar,.gz,.tgz";

/** Drag a file here (or choose one): it is uploaded as a stream and imported; the report opens below. */
export function UploadPanel({ onStarted }: { onStarted: (batchId: string) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [upload, setUpload] = useState<{ name: string; loaded: number; total: number } | null>(null);
  const [options, setOptions] = useState<UploadOptions>({});
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: (file: File) => {
      setUpload({ name: file.name, loaded: 0, total: file.size });
      return uploadFile(file, options, (loaded, total) => setUpload({ name: file.name, loaded, total }));
    },
    onSuccess: (batch) => {
      client.setQueryData(importKeys.one(batch.id), batch);
      void client.invalidateQueries({ queryKey: importKeys.all });
      onStarted(batch.id);
    },
    onSettled: () => setUpload(null),
  });
  const start = (files: FileList | null) => {
    const file = files?.[0];
    if (file && !mutation.isPending) mutation.mutate(file);
  };
  const percent = upload && upload.total ? Math.round((upload.loaded / upload.total) * 100) : 0;

  return (
    <section aria-labelledby="upload-heading" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="upload-heading" className="mb-3 font-medium">Import a file</h2>
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
          start(event.dataTransfer.files);
        }}
        className={`flex cursor-pointer flex-col items-center justify-center rounded border-2 border-dashed px-4 py-8 text-center text-sm ${dragging ? "border-blue-600 bg-blue-50" : "border-slate-300 bg-slate-50"} focus-within:ring-2 focus-within:ring-blue-500`}
      >
        <span className="font-medium text-slate-800">Drop a file here, or choose one</span>
        <span className="mt-1 text-xs text-slate-600">
          SWE-bench instances or predictions (JSON/JSONL), harness report.json or logs, OpenSWE rows or environment folders (.zip/.tar), SWE-Flow steps, SWE-agent .traj,
          OpenHands, Inspect logs, reviewer verdicts — the format is detected
        </span>
        <input
          id="import-file"
          ref={input}
          type="file"
          accept={ACCEPT}
          className="sr-only"
          disabled={mutation.isPending}
          onChange={(event) => {
            start(event.target.files);
            event.target.value = "";
          }}
        />
      </label>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer text-slate-700">Options for files that do not say</summary>
        <div className="mt-2 grid gap-3 sm:grid-cols-3">
          <label className="flex flex-col gap-1">
            <span className="text-xs font-medium text-slate-700">Dataset</span>
            <select className="rounded border border-slate-300 px-2 py-1" value={options.source ?? ""} onChange={(e) => setOptions({ ...options, source: e.target.value || undefined })}>
              {SOURCES.map((s) => (
                <option key={s} value={s}>
                  {s || "detect from the rows"}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-xs font-medium text-slate-700">Generator (model_name_or_path)</span>
            <input className="rounded border border-slate-300 px-2 py-1" value={options.generator ?? ""} onChange={(e) => setOptions({ ...options, generator: e.target.value || undefined })} />
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-xs font-medium text-slate-700">Instance id (for a lone log or report)</span>
            <input className="rounded border border-slate-300 px-2 py-1" value={options.instanceId ?? ""} onChange={(e) => setOptions({ ...options, instanceId: e.target.value || undefined })} />
          </label>
        </div>
      </details>
      {upload ? (
        <div className="mt-3 text-sm" aria-live="polite">
          <div className="mb-1 flex justify-between">
            <span>Uploading {upload.name}</span>
            <span>
              {formatBytes(upload.loaded)} of {formatBytes(upload.total)}
            </span>
          </div>
          <div role="progressbar" aria-label="Upload" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2 overflow-hidden rounded bg-slate-200">
            <div className="h-full bg-blue-600 transition-all" style={{ width: `${percent}%` }} />
          </div>
        </div>
      ) : null}
      <ErrorText error={mutation.error} prefix="Upload" />
      <div className="mt-2">
        <Button size="sm" onClick={() => input.current?.click()} disabled={mutation.isPending}>
          Choose a file…
        </Button>
      </div>
    </section>
  );
}

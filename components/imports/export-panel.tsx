"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetchAll } from "@/components/ui/api";

type SavedView = { id: string; name: string; scope: string; query: string };

/** Downloads approved tasks, or a saved view, as SWE-bench JSONL (the browser streams the file). */
export function ExportPanel() {
  const views = useQuery({ queryKey: ["views", "tasks"], queryFn: () => apiFetchAll<SavedView>("/api/v1/views?scope=tasks") });
  const [view, setView] = useState("");
  const [testLists, setTestLists] = useState<"list" | "json-string">("list");
  const [provenance, setProvenance] = useState(true);
  const [format, setFormat] = useState<"jsonl" | "parquet">("jsonl");
  const params = new URLSearchParams();
  if (view) params.set("view", view);
  if (format !== "jsonl") params.set("format", format);
  if (testLists !== "list") params.set("testLists", testLists);
  if (!provenance) params.set("provenance", "false");
  const list = Array.isArray(views.data) ? views.data : [];
  return (
    <section aria-labelledby="export-heading" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="export-heading" className="mb-3 font-medium">Export</h2>
      <div className="grid gap-3 text-sm">
        <label className="flex flex-col gap-1">
          <span className="text-xs font-medium text-slate-700">Tasks</span>
          <select className="rounded border border-slate-300 px-2 py-1" value={view} onChange={(e) => setView(e.target.value)}>
            <option value="">Approved tasks</option>
            {list.map((v) => (
              <option key={v.id} value={v.id}>
                Saved view: {v.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs font-medium text-slate-700">File format</span>
          <select className="rounded border border-slate-300 px-2 py-1" value={format} onChange={(e) => setFormat(e.target.value as "jsonl" | "parquet")}>
            <option value="jsonl">JSONL (what the SWE-bench harness reads)</option>
            <option value="parquet">Parquet (the Hugging Face layout)</option>
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs font-medium text-slate-700">FAIL_TO_PASS / PASS_TO_PASS as</span>
          <select className="rounded border border-slate-300 px-2 py-1" value={format === "parquet" ? "json-string" : testLists} disabled={format === "parquet"} onChange={(e) => setTestLists(e.target.value as "list" | "json-string")}>
            <option value="list">lists</option>
            <option value="json-string">JSON strings (as on Hugging Face)</option>
          </select>
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={provenance} onChange={(e) => setProvenance(e.target.checked)} />
          <span>Include provenance (decisions, validation runs, image tag, revision)</span>
        </label>
        <a className="inline-flex w-fit items-center rounded border border-blue-700 bg-blue-700 px-3 py-1.5 font-medium text-white hover:bg-blue-800" href={`/api/v1/exports${params.size ? `?${params}` : ""}`} download>
          Download {format === "parquet" ? "Parquet" : "JSONL"}
        </a>
        <p className="text-xs text-slate-600">
          Or from a terminal: <code className="rounded bg-slate-100 px-1">npx swe-curator export{view ? ` --view "${list.find((v) => v.id === view)?.name ?? view}"` : ""} &gt; tasks.jsonl</code>
        </p>
      </div>
    </section>
  );
}

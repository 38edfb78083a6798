"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch, apiFetchAll } from "@/components/ui/api";

type SavedView = { id: string; name: string; scope: string; query: string };
type ExportReport = {
  selection: string;
  considered: number;
  exported: number;
  excluded: number;
  reasons: { reason: string; count: number }[];
  sentence: string;
};

const selectClass = "rounded border border-slate-300 px-2 py-1";
const fieldLabel = "text-xs font-medium text-slate-700";

/** The release filters (lib/exports/release-filters.ts) as query parameters; defaults are left out, so the plain export stays /api/v1/exports. */
function releaseParams(validatedOnly: boolean, verdict: string, decision: string, agreement: string): URLSearchParams {
  const params = new URLSearchParams();
  if (!validatedOnly) params.set("validatedOnly", "false");
  if (verdict) params.set("verdict", verdict);
  if (decision) params.set("decision", decision);
  if (agreement) params.set("agreement", agreement);
  return params;
}

/** What the export holds and leaves out, per reason: read before the download, restated once it started. */
function ExportReportView({ report, started }: { report: ExportReport | undefined; started: boolean }) {
  if (!report) return <p className="text-xs text-slate-600">Counting the tasks…</p>;
  const holds = `${report.exported.toLocaleString("en-US")} of ${report.considered.toLocaleString("en-US")} selected tasks`;
  return (
    <div className="grid gap-1 text-sm" data-testid="export-report">
      <p>
        {started ? `Download started: ${holds}.` : `The export will hold ${holds}.`} <strong>{report.sentence}.</strong>
      </p>
      {report.reasons.length > 0 && (
        <table className="w-fit text-xs">
          <caption className="sr-only">Tasks excluded, per reason</caption>
          <thead>
            <tr>
              <th scope="col" className="pr-4 text-left font-medium">
                Excluded because
              </th>
              <th scope="col" className="text-right font-medium">
                Tasks
              </th>
            </tr>
          </thead>
          <tbody>
            {report.reasons.map((r) => (
              <tr key={r.reason}>
                <td className="pr-4">{r.reason}</td>
                <td className="text-right tabular-nums">{r.count.toLocaleString("en-US")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** Release filters: validated only (the default), verdict, latest decision, campaign agreement. */
function ReleaseFilterFields(props: {
  validatedOnly: boolean;
  setValidatedOnly: (v: boolean) => void;
  verdict: string;
  setVerdict: (v: string) => void;
  decision: string;
  setDecision: (v: string) => void;
  agreement: string;
  setAgreement: (v: string) => void;
}) {
  return (
    <fieldset className="grid gap-2 rounded border border-slate-200 p-2">
      <legend className={`${fieldLabel} px-1`}>Release filters</legend>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={props.validatedOnly}
          onChange={(e) => props.setValidatedOnly(e.target.checked)}
        />
        <span>Validated only (verdict VALID; recommended for a dataset release)</span>
      </label>
      <label className="flex flex-col gap-1">
        <span className={fieldLabel}>Verdict</span>
        <select className={selectClass} value={props.verdict} onChange={(e) => props.setVerdict(e.target.value)}>
          <option value="">Any verdict</option>
          {["VALID", "INVALID", "FLAKY", "PENDING"].map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className={fieldLabel}>Latest curator decision</span>
        <select className={selectClass} value={props.decision} onChange={(e) => props.setDecision(e.target.value)}>
          <option value="">Any decision</option>
          {["APPROVE", "REJECT", "NEEDS_CHANGES"].map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
          <option value="NONE">Nobody decided</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className={fieldLabel}>Campaign annotators agreed</span>
        <select className={selectClass} value={props.agreement} onChange={(e) => props.setAgreement(e.target.value)}>
          <option value="">No agreement filter</option>
          <option value="1">All agreed (100%)</option>
          <option value="0.8">At least 80%</option>
          <option value="0.6">At least 60%</option>
        </select>
      </label>
    </fieldset>
  );
}

/** Downloads approved tasks, or a saved view, as SWE-bench JSONL (the browser streams the file), saying first what it leaves out. */
export function ExportPanel() {
  const views = useQuery({
    queryKey: ["views", "tasks"],
    queryFn: () => apiFetchAll<SavedView>("/api/v1/views?scope=tasks"),
  });
  const [view, setView] = useState("");
  const [testLists, setTestLists] = useState<"list" | "json-string">("list");
  const [provenance, setProvenance] = useState(true);
  const [format, setFormat] = useState<"jsonl" | "parquet">("jsonl");
  const [validatedOnly, setValidatedOnly] = useState(true);
  const [verdict, setVerdict] = useState("");
  const [decision, setDecision] = useState("");
  const [agreement, setAgreement] = useState("");
  const [started, setStarted] = useState(false);
  const params = releaseParams(validatedOnly, verdict, decision, agreement);
  if (view) params.set("view", view);
  const selection = params.toString();
  const report = useQuery({
    queryKey: ["exports", "preview", selection],
    queryFn: () => apiFetch<ExportReport>(`/api/v1/exports/preview${selection ? `?${selection}` : ""}`),
  });
  if (format !== "jsonl") params.set("format", format);
  if (testLists !== "list") params.set("testLists", testLists);
  if (!provenance) params.set("provenance", "false");
  const list = Array.isArray(views.data) ? views.data : [];
  return (
    <section aria-labelledby="export-heading" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="export-heading" className="mb-3 font-medium">
        Export
      </h2>
      <div className="grid gap-3 text-sm">
        <label className="flex flex-col gap-1">
          <span className="text-xs font-medium text-slate-700">Tasks</span>
          <select
            className={selectClass}
            value={view}
            onChange={(e) => {
              setView(e.target.value);
              setStarted(false);
            }}
          >
            <option value="">Approved tasks</option>
            {list.map((v) => (
              <option key={v.id} value={v.id}>
                Saved view: {v.name}
              </option>
            ))}
          </select>
        </label>
        <ReleaseFilterFields
          validatedOnly={validatedOnly}
          setValidatedOnly={(v) => {
            setValidatedOnly(v);
            setStarted(false);
          }}
          verdict={verdict}
          setVerdict={(v) => {
            setVerdict(v);
            setStarted(false);
          }}
          decision={decision}
          setDecision={(v) => {
            setDecision(v);
            setStarted(false);
          }}
          agreement={agreement}
          setAgreement={(v) => {
            setAgreement(v);
            setStarted(false);
          }}
        />
        <label className="flex flex-col gap-1">
          <span className="text-xs font-medium text-slate-700">File format</span>
          <select
            className="rounded border border-slate-300 px-2 py-1"
            value={format}
            onChange={(e) => setFormat(e.target.value as "jsonl" | "parquet")}
          >
            <option value="jsonl">JSONL (what the SWE-bench harness reads)</option>
            <option value="parquet">Parquet (the Hugging Face layout)</option>
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs font-medium text-slate-700">FAIL_TO_PASS / PASS_TO_PASS as</span>
          <select
            className="rounded border border-slate-300 px-2 py-1"
            value={format === "parquet" ? "json-string" : testLists}
            disabled={format === "parquet"}
            onChange={(e) => setTestLists(e.target.value as "list" | "json-string")}
          >
            <option value="list">lists</option>
            <option value="json-string">JSON strings (as on Hugging Face)</option>
          </select>
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={provenance} onChange={(e) => setProvenance(e.target.checked)} />
          <span>Include provenance (decisions, validation runs, image tag, revision)</span>
        </label>
        <a
          className="inline-flex w-fit items-center rounded border border-blue-700 bg-blue-700 px-3 py-1.5 font-medium text-white hover:bg-blue-800"
          href={`/api/v1/exports${params.size ? `?${params}` : ""}`}
          download
          onClick={() => setStarted(true)}
        >
          Download {format === "parquet" ? "Parquet" : "JSONL"}
        </a>
        <div aria-live="polite">
          {report.isError ? (
            <p role="alert" className="text-sm text-red-700">
              {report.error.message}
            </p>
          ) : (
            <ExportReportView report={report.data} started={started} />
          )}
        </div>
        <p className="text-xs text-slate-600">
          Or from a terminal:{" "}
          <code className="rounded bg-slate-100 px-1">
            npx swe-curator export{view ? ` --view "${list.find((v) => v.id === view)?.name ?? view}"` : ""}
            {validatedOnly ? "" : " --include-unvalidated"} &gt; tasks.jsonl
          </code>
        </p>
      </div>
    </section>
  );
}

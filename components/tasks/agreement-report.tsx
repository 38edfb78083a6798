"use client";
import { Link } from "@/components/ui/link";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { AgreementResponse } from "@/lib/metrics/get-agreement";
import { describeKappa } from "@/lib/metrics/kappa";
import { DECISION_REASON_LABELS } from "@/lib/curation/decision-rules";
import type { DecisionReason } from "@/lib/db/enums";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { Badge } from "@/components/ui/badge";
import { ErrorText } from "@/components/ui/error-text";
import { inputClass } from "@/components/ui/field";
import { BarChart } from "@/components/charts/bar-chart";

const KAPPA_SCALE = { kind: "score", min: -1, max: 1, format: (v: number) => v.toFixed(1) } as const;
const kappaNote = (kappa: number | null, items: number) =>
  `${describeKappa(kappa)}, ${items} task${items === 1 ? "" : "s"}`;

/** How much curators agree: Fleiss' kappa overall and per reason, Cohen's kappa per pair, and the disagreeing tasks. */
export function AgreementReport() {
  const [since, setSince] = useState("");
  const { data, error } = useQuery({
    queryKey: queryKeys.agreement(since),
    queryFn: () => apiFetch<AgreementResponse>(`/api/v1/agreement${since ? `?since=${since}` : ""}`),
  });
  if (error) return <ErrorText error={error} prefix="Could not compute agreement" />;
  return (
    <div className="flex flex-col gap-6">
      <label className="flex w-48 flex-col text-xs font-medium text-slate-700">
        Decisions since
        <input type="date" value={since} onChange={(e) => setSince(e.target.value)} className={inputClass} />
      </label>
      {!data ? (
        <p>Computing agreement…</p>
      ) : (
        <>
          <p className="text-sm text-slate-700" data-testid="agreement-summary">
            {data.decisions} decisions; {data.tasksWithSeveralCurators} tasks decided by two or more curators. Overall
            Fleiss&apos; κ ={" "}
            <strong>{data.overall.kappa === null ? "not computable" : data.overall.kappa.toFixed(3)}</strong> (
            {describeKappa(data.overall.kappa)}); observed agreement {(data.overall.observed * 100).toFixed(0)}% vs{" "}
            {(data.overall.expected * 100).toFixed(0)}% by chance. Each curator&apos;s latest decision per task counts.
          </p>
          {data.tasksWithSeveralCurators === 0 ? (
            <p className="text-sm text-slate-600">
              Agreement needs tasks that at least two curators decided; set “approvals required” above 1 in the settings
              to collect them.
            </p>
          ) : (
            <>
              <BarChart
                title="Cohen's κ per curator pair (verdict)"
                testId="pair-chart"
                scale={KAPPA_SCALE}
                bars={data.pairs.map((p) => ({
                  label: `${p.nameA} × ${p.nameB}`,
                  value: p.kappa,
                  note: kappaNote(p.kappa, p.items),
                }))}
              />
              <BarChart
                title="Fleiss' κ per reason (cited or not)"
                testId="reason-chart"
                scale={KAPPA_SCALE}
                bars={data.reasons.map((r) => ({
                  label: DECISION_REASON_LABELS[r.reason as DecisionReason] ?? r.reason,
                  value: r.kappa,
                  note: `used ${r.timesUsed}×, ${describeKappa(r.kappa)}`,
                }))}
              />
            </>
          )}
          <section>
            <h2 className="mb-2 text-base font-semibold">Disagreements ({data.disagreementCount})</h2>
            {data.disagreements.length === 0 && (
              <p className="text-sm text-slate-600">No task has curators with different verdicts.</p>
            )}
            <ul className="flex flex-col gap-1 text-sm" data-testid="disagreements">
              {data.disagreements.map((d) => (
                <li
                  key={d.taskId}
                  className="flex flex-wrap items-center gap-2 rounded border border-slate-200 bg-white px-2 py-1"
                >
                  <Link href={`/tasks/${d.taskId}`} className="font-mono text-blue-700 underline">
                    {d.instanceId}
                  </Link>
                  {d.verdicts.map((v) => (
                    <span key={v.curatorId} className="text-xs">
                      {v.name}: <Badge>{v.verdict}</Badge>
                    </span>
                  ))}
                </li>
              ))}
            </ul>
          </section>
        </>
      )}
    </div>
  );
}

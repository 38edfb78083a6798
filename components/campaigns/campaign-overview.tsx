"use client";
import { Link } from "@/components/ui/link";
import { useQuery } from "@tanstack/react-query";
import type { CampaignReport } from "@/lib/campaigns/report";
import { describeKappa } from "@/lib/metrics/kappa";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import type { Jsonified } from "@/components/ui/jsonified";
import { Badge } from "@/components/ui/badge";
import { ErrorText } from "@/components/ui/error-text";
import { ProgressBar } from "./progress-bar";
import { GoldPanel } from "./gold-panel";

export type ReportJson = Jsonified<CampaignReport>;

const pct = (v: number | null | undefined) => (v === null || v === undefined ? "—" : `${Math.round(v * 100)}%`);
const interval = (i: number[] | null) =>
  i ? `95% CI ${i[0].toFixed(2)} – ${i[1].toFixed(2)}` : "no interval (too few tasks)";
export const minutes = (seconds: number | null) =>
  seconds === null ? "—" : seconds < 90 ? `${Math.round(seconds)} s` : `${(seconds / 60).toFixed(1)} min`;

export function useCampaignReport(campaignId: string) {
  return useQuery({
    queryKey: queryKeys.campaign(campaignId),
    queryFn: () => apiFetch<ReportJson>(`/api/v1/campaigns/${campaignId}`),
  });
}

export function CampaignOverview({ campaignId }: { campaignId: string }) {
  const { data, error } = useCampaignReport(campaignId);
  if (error) return <ErrorText error={error} prefix="Could not load the campaign" />;
  if (!data) return <p>Loading the campaign…</p>;
  const s = data.settings;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold">{s.name}</h1>
        <Badge>{s.status}</Badge>
        {s.blind && <Badge tone="blue">blind</Badge>}
        <nav aria-label="Campaign" className="ml-auto flex gap-3 text-sm">
          <Link
            href={`/campaigns/${campaignId}/annotate`}
            className="text-blue-700 underline"
            data-testid="start-annotating"
          >
            Annotate
          </Link>
          {data.role === "admin" && (
            <>
              <Link href={`/campaigns/${campaignId}/adjudicate`} className="text-blue-700 underline">
                Adjudicate ({data.disagreementCount})
              </Link>
              <a
                href={`/api/v1/campaigns/${campaignId}/export?format=csv`}
                className="text-blue-700 underline"
                data-testid="export-csv"
              >
                Export CSV
              </a>
              <a href={`/api/v1/campaigns/${campaignId}/export?format=jsonl`} className="text-blue-700 underline">
                Export JSONL
              </a>
            </>
          )}
        </nav>
      </div>
      <p className="text-sm text-slate-700">
        {s.rubricName} v{s.rubricVersion} · {s.tasks} tasks
        {s.goldTasks ? ` + ${s.goldTasks} gold (bar ${pct(s.goldThreshold)})` : ""} · {s.overlap} labels per task ·
        combined by {s.combination.replace("_", " ").toLowerCase()} · dropped when{" "}
        {s.dropRule.any
          .map((c) =>
            c.atLeast !== undefined ? `${c.question} ≥ ${c.atLeast}` : `${c.question} = ${String(c.equals)}`,
          )
          .join(" or ") || "never"}
      </p>
      <section aria-label="Progress">
        <h2 className="mb-2 text-base font-semibold">Progress</h2>
        <ProgressBar done={data.progress.labels} total={data.progress.labelsNeeded} label="Labels submitted" />
        <p className="mt-1 text-xs text-slate-600">{data.progress.completeTasks} tasks have all their labels.</p>
      </section>
      <AnnotatorTable data={data} campaignId={campaignId} />
      {data.role === "admin" && <AgreementSection data={data} />}
      {data.role === "admin" && <GoldPanel campaignId={campaignId} questions={s.questions} />}
    </div>
  );
}

function AnnotatorTable({ data, campaignId }: { data: ReportJson; campaignId: string }) {
  return (
    <section aria-label="Annotators">
      <h2 className="mb-2 text-base font-semibold">{data.role === "admin" ? "Annotators" : "Your progress"}</h2>
      <table className="w-full text-sm" data-testid="annotator-table">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
            <th scope="col" className="p-2">
              Annotator
            </th>
            <th scope="col" className="p-2">
              Done / assigned
            </th>
            <th scope="col" className="p-2">
              Median time per task
            </th>
            <th scope="col" className="p-2">
              Agreement with the others
            </th>
            <th scope="col" className="p-2">
              Gold
            </th>
          </tr>
        </thead>
        <tbody>
          {data.annotators.map((a) => (
            <tr key={a.id} className="border-b border-slate-100" data-testid="annotator-row">
              <td className="p-2">
                {data.role === "admin" ? (
                  <Link href={`/campaigns/${campaignId}/annotators/${a.id}`} className="text-blue-700 underline">
                    {a.name}
                  </Link>
                ) : (
                  a.name
                )}
              </td>
              <td className="p-2">
                <ProgressBar done={a.done} total={a.assigned} label={`Progress of ${a.name}`} />
              </td>
              <td className="p-2">{minutes(a.medianSeconds)}</td>
              <td className="p-2">{pct(a.agreement)}</td>
              <td className="p-2">
                {!a.gate.required ? (
                  "—"
                ) : a.gate.passed ? (
                  <Badge tone="green">passed {pct(a.goldAccuracy)}</Badge>
                ) : (
                  <Badge tone="amber">{`onboarding ${a.gate.done}/${a.gate.total}`}</Badge>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function AgreementSection({ data }: { data: ReportJson }) {
  return (
    <section aria-label="Agreement per question" className="flex flex-col gap-4">
      <h2 className="text-base font-semibold">Agreement per question</h2>
      <table className="w-full text-sm" data-testid="question-agreement">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
            <th scope="col" className="p-2">
              Question
            </th>
            <th scope="col" className="p-2">
              Krippendorff&apos;s α
            </th>
            <th scope="col" className="p-2">
              Pairs (κ , quadratic-weighted for scales)
            </th>
            <th scope="col" className="p-2">
              Answers
            </th>
          </tr>
        </thead>
        <tbody>
          {data.agreement
            .filter((q) => q.type !== "text")
            .map((q) => (
              <tr key={q.key} className="border-b border-slate-100 align-top" data-question={q.key}>
                <th scope="row" className="p-2 text-left font-normal">
                  {q.prompt}
                  <div className="text-xs text-slate-500">{q.level ? `${q.level}, ${q.units} tasks` : q.type}</div>
                </th>
                <td className="p-2">
                  {q.alpha === null ? "—" : <strong data-testid="alpha">{q.alpha.toFixed(3)}</strong>}
                  <div className="text-xs text-slate-500">{q.level ? interval(q.alphaInterval) : ""}</div>
                </td>
                <td className="p-2 text-xs">
                  {q.pairs.map((p) => (
                    <div key={`${p.annotatorA}-${p.annotatorB}`}>
                      {names(data, p.annotatorA)} × {names(data, p.annotatorB)}:{" "}
                      {p.kappa === null ? "not computable" : p.kappa.toFixed(2)} ({describeKappa(p.kappa)}, {p.items}{" "}
                      tasks, {interval(p.interval)})
                    </div>
                  ))}
                </td>
                <td className="p-2">
                  <Distribution bars={q.distribution} />
                </td>
              </tr>
            ))}
        </tbody>
      </table>
      <h3 className="text-sm font-semibold">Widest disagreements</h3>
      <ol className="list-decimal pl-6 text-sm" data-testid="widest-disagreements">
        {data.disagreements.slice(0, 10).map((d) => (
          <li key={d.taskId}>
            <span className="font-mono">{d.instanceId}</span> — spread {d.spread} on {d.questions.join(", ")}{" "}
            {d.adjudicated && <Badge tone="green">adjudicated</Badge>}
          </li>
        ))}
        {data.disagreements.length === 0 && (
          <li className="list-none text-slate-600">No finished task has disagreeing labels.</li>
        )}
      </ol>
    </section>
  );
}

const names = (data: ReportJson, id: string) => data.annotators.find((a) => a.id === id)?.name ?? id;

/** How often each answer was given, as small bars with the count beside each. */
function Distribution({ bars }: { bars: { value: string; label: string; count: number }[] }) {
  const max = Math.max(1, ...bars.map((b) => b.count));
  return (
    <ul className="flex flex-col gap-0.5 text-xs" aria-label="Answer distribution">
      {bars.map((b) => (
        <li key={b.value} className="flex items-center gap-2" title={b.label}>
          <span className="w-28 truncate">{b.label}</span>
          <span
            className="inline-block h-2 bg-blue-500"
            style={{ width: `${(b.count / max) * 80}px` }}
            aria-hidden="true"
          />
          <span className="tabular-nums">{b.count}</span>
        </li>
      ))}
    </ul>
  );
}

"use client";
import { Link } from "@/components/ui/link";
import { ErrorText } from "@/components/ui/error-text";
import { Badge } from "@/components/ui/badge";
import { ProgressBar } from "./progress-bar";
import { minutes, useCampaignReport } from "./campaign-overview";

const pct = (v: number | null) => (v === null ? "—" : `${Math.round(v * 100)}%`);

/** One annotator in one campaign: progress, speed, agreement, gold accuracy and its drift over time. */
export function AnnotatorPage({ campaignId, userId }: { campaignId: string; userId: string }) {
  const { data, error } = useCampaignReport(campaignId);
  if (error) return <ErrorText error={error} prefix="Could not load the annotator" />;
  if (!data) return <p>Loading…</p>;
  const a = data.annotators.find((x) => x.id === userId);
  if (!a) return <ErrorText error={new Error("This user is not an annotator of the campaign")} />;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <h1 className="text-xl font-semibold">{a.name}</h1>
        <span className="text-sm text-slate-600">in {data.settings.name}</span>
        <Link href={`/campaigns/${campaignId}`} className="ml-auto text-sm text-blue-700 underline">
          Campaign overview
        </Link>
      </div>
      <dl className="grid max-w-xl grid-cols-2 gap-2 text-sm" data-testid="annotator-metrics">
        <dt className="text-slate-600">Done / assigned</dt>
        <dd>
          <ProgressBar done={a.done} total={a.assigned} label={`Progress of ${a.name}`} />
        </dd>
        <dt className="text-slate-600">Median time per task (open to submit)</dt>
        <dd>{minutes(a.medianSeconds)}</dd>
        <dt className="text-slate-600">Agreement with the others</dt>
        <dd>{pct(a.agreement)}</dd>
        <dt className="text-slate-600">Accuracy on gold tasks</dt>
        <dd>
          {pct(a.goldAccuracy)}{" "}
          {a.gate.required &&
            (a.gate.passed ? <Badge tone="green">passed</Badge> : <Badge tone="amber">onboarding</Badge>)}
        </dd>
      </dl>
      <section aria-label="Drift">
        <h2 className="mb-2 text-base font-semibold">Agreement over time</h2>
        {a.drift.length === 0 ? (
          <p className="text-sm text-slate-600">Too few labels to show a trend.</p>
        ) : (
          <table className="text-sm" data-testid="drift">
            <thead>
              <tr className="text-left text-xs text-slate-600">
                <th scope="col" className="p-1">
                  Labels submitted
                </th>
                <th scope="col" className="p-1">
                  Tasks
                </th>
                <th scope="col" className="p-1">
                  Agreement with the others
                </th>
              </tr>
            </thead>
            <tbody>
              {a.drift.map((w) => (
                <tr key={w.from}>
                  <td className="p-1">
                    {new Date(w.from).toLocaleString()} – {new Date(w.to).toLocaleString()}
                  </td>
                  <td className="p-1 tabular-nums">{w.tasks}</td>
                  <td className="p-1">{pct(w.agreement)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

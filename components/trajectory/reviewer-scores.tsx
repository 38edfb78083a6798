"use client";
import { useQuery } from "@tanstack/react-query";
import { apiFetchAll } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import type { ReviewerScore } from "@/lib/trajectories/score-reviewers";
import { BarChart } from "@/components/charts/bar-chart";
import { formatPercent, formatRate } from "@/components/charts/chart-format";

const pct = (v: number | null) => (v == null ? "—" : formatPercent(v));
const METRICS = [
  { key: "accuracy", label: "Accuracy" },
  { key: "precision", label: "Precision (approvals that resolve)" },
  { key: "recall", label: "Recall (resolving patches approved)" },
] as const;

/** One chart per metric, a bar per reviewer, 0–100 %. */
function ScoresCharts({ scores }: { scores: ReviewerScore[] }) {
  return (
    <div className="flex flex-col gap-4">
      {METRICS.map((metric) => (
        <BarChart
          key={metric.key}
          title={metric.label}
          bars={scores.map((s) => ({ label: s.reviewer, value: s[metric.key], proportion: s.proportions[metric.key] }))}
          scale={{ kind: "rate" }}
          emptyText="No reviewer verdict has executed ground truth yet: run its candidate patch with the tests."
        />
      ))}
    </div>
  );
}

export function ReviewerScores() {
  const { data, error, isLoading } = useQuery({
    queryKey: queryKeys.reviewerScores(),
    queryFn: () => apiFetchAll<ReviewerScore>("/api/v1/reviewers/scores"),
  });
  if (isLoading) return <p>Scoring reviewers…</p>;
  if (error) return <p role="alert">Could not score reviewers: {error.message}</p>;
  if (!data?.length)
    return (
      <p className="text-sm text-slate-600">
        No reviewer verdicts yet. Import reviewer verdicts (Imports) and validate their candidate patches to score them.
      </p>
    );
  return (
    <div className="space-y-6">
      <ScoresCharts scores={data.filter((s) => s.scored > 0)} />
      <table className="w-full bg-white text-sm" data-testid="reviewer-scores">
        <thead>
          <tr className="border-b text-left text-slate-600">
            <th className="px-3 py-2">Reviewer</th>
            <th className="px-3 py-2">Scored</th>
            <th className="px-3 py-2">Correct approvals</th>
            <th className="px-3 py-2">False approvals</th>
            <th className="px-3 py-2">Correct rejections</th>
            <th className="px-3 py-2">False rejections</th>
            <th className="px-3 py-2">Accuracy</th>
            <th className="px-3 py-2">Precision</th>
            <th className="px-3 py-2">Recall</th>
            <th className="px-3 py-2">F1</th>
            <th className="px-3 py-2" title="mean confidence when right minus when wrong">
              Confidence gap
            </th>
            <th className="px-3 py-2">Awaiting ground truth</th>
          </tr>
        </thead>
        <tbody>
          {data.map((s) => (
            <tr key={s.reviewer} className="border-b">
              <td className="px-3 py-2 font-medium">{s.reviewer}</td>
              <td className="px-3 py-2">{s.scored}</td>
              <td className="px-3 py-2">{s.truePositive}</td>
              <td className="px-3 py-2 text-red-700">{s.falsePositive}</td>
              <td className="px-3 py-2">{s.trueNegative}</td>
              <td className="px-3 py-2">{s.falseNegative}</td>
              <td className="px-3 py-2">{formatRate(s.proportions.accuracy)}</td>
              <td className="px-3 py-2">{formatRate(s.proportions.precision)}</td>
              <td className="px-3 py-2">{formatRate(s.proportions.recall)}</td>
              <td className="px-3 py-2">{pct(s.f1)}</td>
              <td className="px-3 py-2">{s.confidenceGap == null ? "—" : s.confidenceGap.toFixed(2)}</td>
              <td className="px-3 py-2">{s.awaitingGroundTruth}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

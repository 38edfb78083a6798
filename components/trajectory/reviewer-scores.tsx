"use client";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/ui/api";
import type { ReviewerScore } from "@/lib/trajectories/score-reviewers";

const pct = (v: number | null) => (v == null ? "—" : `${(v * 100).toFixed(1)}%`);
const METRICS = [
  { key: "accuracy", label: "Accuracy", color: "#1d4ed8" },
  { key: "precision", label: "Precision (approvals that resolve)", color: "#15803d" },
  { key: "recall", label: "Recall (resolving patches approved)", color: "#a16207" },
] as const;

/** Grouped horizontal bars: one group per reviewer, one bar per metric, 0–100 %. */
function ScoresChart({ scores }: { scores: ReviewerScore[] }) {
  const barH = 10;
  const groupH = METRICS.length * (barH + 3) + 14;
  const labelW = 180;
  const plotW = 420;
  const height = scores.length * groupH + 24;
  return (
    <figure>
      <svg role="img" aria-label="Reviewer accuracy, precision and recall" width={labelW + plotW + 60} height={height} className="text-xs">
        {[0, 0.25, 0.5, 0.75, 1].map((t) => (
          <g key={t}>
            <line x1={labelW + t * plotW} x2={labelW + t * plotW} y1={0} y2={height - 18} stroke="#e2e8f0" />
            <text x={labelW + t * plotW} y={height - 4} textAnchor="middle" fill="#475569">
              {t * 100}%
            </text>
          </g>
        ))}
        {scores.map((s, i) => (
          <g key={s.reviewer} transform={`translate(0, ${i * groupH + 4})`}>
            <text x={labelW - 8} y={groupH / 2 - 4} textAnchor="end" fill="#0f172a">
              {s.reviewer.length > 26 ? s.reviewer.slice(0, 25) + "…" : s.reviewer}
            </text>
            {METRICS.map((m, j) => {
              const value = s[m.key];
              return (
                <g key={m.key}>
                  <rect x={labelW} y={j * (barH + 3)} width={(value ?? 0) * plotW} height={barH} fill={m.color}>
                    <title>{`${m.label}: ${pct(value)}`}</title>
                  </rect>
                  <text x={labelW + (value ?? 0) * plotW + 4} y={j * (barH + 3) + barH - 1} fill="#334155">
                    {pct(value)}
                  </text>
                </g>
              );
            })}
          </g>
        ))}
      </svg>
      <figcaption className="mt-1 flex gap-4 text-xs text-slate-600">
        {METRICS.map((m) => (
          <span key={m.key} className="inline-flex items-center gap-1">
            <span aria-hidden className="inline-block h-2 w-3" style={{ background: m.color }} /> {m.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

export function ReviewerScores() {
  const { data, error, isLoading } = useQuery({ queryKey: ["reviewer-scores"], queryFn: () => apiFetch<ReviewerScore[]>("/api/v1/reviewers/scores") });
  if (isLoading) return <p>Scoring reviewers…</p>;
  if (error) return <p role="alert">Could not score reviewers: {error.message}</p>;
  if (!data?.length)
    return <p className="text-sm text-slate-600">No reviewer verdicts yet. Import reviewer verdicts (Imports) and validate their candidate patches to score them.</p>;
  return (
    <div className="space-y-6">
      <ScoresChart scores={data.filter((s) => s.scored > 0)} />
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
            <th className="px-3 py-2">F1</th>
            <th className="px-3 py-2" title="mean confidence when right minus when wrong">Confidence gap</th>
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
              <td className="px-3 py-2">{pct(s.accuracy)}</td>
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

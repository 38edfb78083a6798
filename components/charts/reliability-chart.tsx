"use client";
import {
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

// A reliability diagram: per confidence bin, how often the decisions were right, against
// the diagonal a calibrated reviewer would follow.

export type ReliabilityBin = { bin: string; meanConfidence: number | null; accuracy: number | null; reviews: number };

const pct = (v: number) => `${Math.round(v * 100)}%`;

export function ReliabilityChart({ bins, testId }: { bins: ReliabilityBin[]; testId?: string }) {
  const points = bins
    .filter((b) => b.meanConfidence !== null && b.accuracy !== null)
    .map((b) => ({ x: b.meanConfidence, y: b.accuracy, reviews: b.reviews, bin: b.bin }));
  return (
    <figure className="min-w-0" data-testid={testId}>
      <figcaption className="mb-1 text-sm font-medium">Reliability diagram: accuracy per confidence bin</figcaption>
      {points.length === 0 && <p className="text-sm text-slate-600">No scored review with a confidence yet.</p>}
      <div style={{ height: 260 }} role="img" aria-label="Reliability diagram">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={points} margin={{ left: 8, right: 24, top: 8, bottom: 16 }}>
            <CartesianGrid stroke="#e2e8f0" />
            <XAxis
              type="number"
              dataKey="x"
              domain={[0, 1]}
              tickFormatter={pct}
              name="Mean confidence"
              fontSize={11}
              label={{ value: "mean confidence", position: "insideBottom", offset: -8, fontSize: 11 }}
            />
            <YAxis type="number" dataKey="y" domain={[0, 1]} tickFormatter={pct} name="Accuracy" fontSize={11} />
            <Tooltip formatter={(v) => (typeof v === "number" ? pct(v) : String(v))} />
            <Legend verticalAlign="top" />
            <ReferenceLine
              segment={[
                { x: 0, y: 0 },
                { x: 1, y: 1 },
              ]}
              stroke="#94a3b8"
              strokeDasharray="4 4"
            />
            <Line dataKey="y" name="accuracy" stroke="#2563eb" isAnimationActive={false} dot={false} />
            <Scatter dataKey="y" name="bins" fill="#2563eb" isAnimationActive={false} />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

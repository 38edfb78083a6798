// A small horizontal bar chart in plain SVG: numbers people compare are drawn, with the
// value printed beside each bar so the chart is readable without hovering.

export type Bar = { label: string; value: number | null; note?: string };

type Props = { title: string; bars: Bar[]; min?: number; max?: number; format?: (v: number) => string; testId?: string };

const ROW = 26;
const LABEL_WIDTH = 210;
const BAR_WIDTH = 320;
const VALUE_WIDTH = 300;

export function BarChart({ title, bars, min = 0, max = 1, format = (v) => v.toFixed(2), testId }: Props) {
  const height = bars.length * ROW + 24;
  const span = max - min || 1;
  const x = (v: number) => ((Math.min(max, Math.max(min, v)) - min) / span) * BAR_WIDTH;
  const zero = x(0);
  return (
    <figure className="overflow-x-auto" data-testid={testId}>
      <figcaption className="mb-1 text-sm font-medium">{title}</figcaption>
      <svg role="img" aria-label={title} width={LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH} height={height} className="text-slate-700">
        {bars.map((bar, i) => {
          const y = i * ROW;
          const value = bar.value;
          const start = value === null ? zero : Math.min(zero, x(value));
          const width = value === null ? 0 : Math.abs(x(value) - zero);
          return (
            <g key={bar.label} transform={`translate(0, ${y})`}>
              <title>{`${bar.label}: ${value === null ? "undefined" : format(value)}${bar.note ? ` (${bar.note})` : ""}`}</title>
              <text x={LABEL_WIDTH - 8} y={ROW / 2 + 4} textAnchor="end" fontSize="12" fill="currentColor">
                {bar.label.length > 30 ? bar.label.slice(0, 29) + "…" : bar.label}
              </text>
              <rect x={LABEL_WIDTH} y={4} width={BAR_WIDTH} height={ROW - 8} fill="#f1f5f9" />
              <rect x={LABEL_WIDTH + start} y={4} width={width} height={ROW - 8} fill={value !== null && value < 0 ? "#dc2626" : "#2563eb"} />
              <text x={LABEL_WIDTH + BAR_WIDTH + 8} y={ROW / 2 + 4} fontSize="12" fill="currentColor">
                {value === null ? "undefined" : format(value)}
                {bar.note ? ` · ${bar.note}` : ""}
              </text>
            </g>
          );
        })}
        <line x1={LABEL_WIDTH + zero} x2={LABEL_WIDTH + zero} y1={0} y2={bars.length * ROW} stroke="#475569" strokeWidth="1" />
        <text x={LABEL_WIDTH} y={height - 6} fontSize="10" fill="#64748b">
          {format(min)}
        </text>
        <text x={LABEL_WIDTH + BAR_WIDTH} y={height - 6} fontSize="10" fill="#64748b" textAnchor="end">
          {format(max)}
        </text>
      </svg>
    </figure>
  );
}

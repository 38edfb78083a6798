"use client";
import { useRouter } from "next/navigation";
import { Bar, BarChart as RechartsBarChart, CartesianGrid, LabelList, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

// Horizontal bar charts on recharts (a maintained chart library: axes, tooltips, keyboard
// and screen-reader layer, click events). The value is printed beside each bar so the chart
// reads without hovering; a bar with an href opens it (the tasks behind the number).

export type Bar = { label: string; value: number | null; note?: string; href?: string };
export type ChartSeries = { key: string; name: string };
export type ChartDatum = { label: string; values: Record<string, number | null>; hrefs?: Record<string, string>; notes?: Record<string, string> };

const COLOURS = ["#2563eb", "#059669", "#d97706", "#7c3aed", "#db2777", "#0891b2", "#65a30d", "#dc2626"];
const ROW_HEIGHT = 30;

type GroupedProps = {
  title: string;
  data: ChartDatum[];
  series: ChartSeries[];
  min?: number;
  max?: number | "auto";
  format?: (v: number) => string;
  testId?: string;
  /** said in words when there is nothing to draw; the axes are still drawn */
  emptyText?: string;
};

/** Bars per category, one per series (a single series is an ordinary bar chart). */
export function GroupedBarChart({ title, data, series, min = 0, max = 1, format = (v) => v.toFixed(2), testId, emptyText = "No data yet." }: GroupedProps) {
  const router = useRouter();
  const empty = data.every((d) => series.every((s) => d.values[s.key] === null || d.values[s.key] === undefined));
  const rows = data.map((d) => ({ label: d.label, hrefs: d.hrefs ?? {}, notes: d.notes ?? {}, ...Object.fromEntries(series.map((s) => [s.key, d.values[s.key] ?? null])) }));
  const height = Math.max(120, data.length * series.length * ROW_HEIGHT * 0.8 + 70);
  return (
    <figure className="min-w-0" data-testid={testId}>
      <figcaption className="mb-1 text-sm font-medium">{title}</figcaption>
      {empty && (
        <p className="text-sm text-slate-600" data-testid={testId ? `${testId}-empty` : undefined}>
          {emptyText}
        </p>
      )}
      <div style={{ height }} role="img" aria-label={title}>
        <ResponsiveContainer width="100%" height="100%">
          <RechartsBarChart data={rows} layout="vertical" margin={{ left: 8, right: 96, top: 4, bottom: 4 }}>
            <CartesianGrid horizontal={false} stroke="#e2e8f0" />
            <XAxis type="number" domain={[min, max === "auto" ? "auto" : max]} tickFormatter={(v: number) => format(v)} fontSize={11} />
            <YAxis type="category" dataKey="label" width={200} fontSize={12} tickFormatter={(v: string) => (v.length > 30 ? `${v.slice(0, 29)}…` : v)} />
            <Tooltip formatter={(v) => (typeof v === "number" ? format(v) : String(v ?? "undefined"))} />
            {series.length > 1 && <Legend />}
            {series.map((s, i) => (
              <Bar
                key={s.key}
                dataKey={s.key}
                name={s.name}
                fill={COLOURS[i % COLOURS.length]}
                isAnimationActive={false}
                cursor="pointer"
                onClick={(entry) => {
                  const href = (entry.payload as { hrefs?: Record<string, string> } | undefined)?.hrefs?.[s.key];
                  if (href) router.push(href);
                }}
              >
                <LabelList
                  dataKey={s.key}
                  position="right"
                  fontSize={11}
                  formatter={(v: unknown) => (typeof v === "number" ? format(v) : "undefined")}
                />
              </Bar>
            ))}
          </RechartsBarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

type Props = { title: string; bars: Bar[]; min?: number; max?: number; format?: (v: number) => string; testId?: string; emptyText?: string };

/** One bar per label; the note goes to the tooltip and the table beside. */
export function BarChart({ bars, ...rest }: Props) {
  const data = bars.map((b) => ({ label: b.note ? `${b.label} (${b.note})` : b.label, values: { value: b.value }, hrefs: b.href ? { value: b.href } : undefined }));
  return <GroupedBarChart {...rest} data={data} series={[{ key: "value", name: rest.title }]} />;
}

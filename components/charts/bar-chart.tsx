"use client";
import { useRouter } from "next/navigation";
import {
  Bar,
  BarChart as RechartsBarChart,
  CartesianGrid,
  ErrorBar,
  LabelList,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { Proportion } from "@/lib/metrics/wilson";
import { formatCount, formatPercent, formatRateShort, formatRate, LABEL_CHARS, shortLabel } from "./chart-format";

// Horizontal bar charts on recharts (a maintained chart library: axes, tooltips, keyboard
// and screen-reader layer, click events, error bars). The value is printed beside each bar
// so the chart reads without hovering; a bar with an href opens it (the tasks behind the
// number). A rate bar carries its count and 95 % Wilson interval: the count beside the bar,
// the interval as an error bar, both in the tooltip.

export type Bar = { label: string; value: number | null; note?: string; href?: string; proportion?: Proportion | null };
export type ChartSeries = { key: string; name: string };
export type ChartDatum = {
  label: string;
  values: Record<string, number | null>;
  hrefs?: Record<string, string | undefined>;
  /** a rate's count and interval, per series key */
  proportions?: Record<string, Proportion | null>;
};
/**
 * What the axis measures: a rate (0–100 %, ticks every 25 %), a count (whole-number ticks
 * from 0), or a score on a fixed domain (κ: −1…1).
 */
export type ChartScale =
  { kind: "rate" } | { kind: "count" } | { kind: "score"; min: number; max: number; format: (v: number) => string };

const COLOURS = ["#2563eb", "#059669", "#d97706", "#7c3aed", "#db2777", "#0891b2", "#65a30d", "#dc2626"];
const ROW_HEIGHT = 30;
const RATE_TICKS = [0, 0.25, 0.5, 0.75, 1];
const NOTHING = "no data";

type GroupedProps = {
  title: string;
  data: ChartDatum[];
  series: ChartSeries[];
  scale: ChartScale;
  testId?: string;
  /** said in words when there is nothing to draw; the axes are still drawn */
  emptyText?: string;
};

type Row = {
  label: string;
  hrefs: Record<string, string | undefined>;
  proportions: Record<string, Proportion | null>;
} & Record<string, unknown>;

/** The value axis for a scale: fixed rate ticks, whole-number counts, or the score's domain. */
function valueAxis(scale: ChartScale) {
  if (scale.kind === "rate")
    return { domain: [0, 1] as [number, number], ticks: RATE_TICKS, tickFormatter: (v: number) => formatPercent(v, 0) };
  if (scale.kind === "count")
    return { domain: [0, "auto"] as [number, string], allowDecimals: false, tickFormatter: formatCount };
  return { domain: [scale.min, scale.max] as [number, number], tickCount: 5, tickFormatter: scale.format };
}

/** The label beside a bar: a rate with its count ("100 % (1/1)"), a count, or "no data" — never "undefined". */
function barText(scale: ChartScale, value: unknown, proportion: Proportion | null | undefined): string {
  if (typeof value !== "number") return proportion ? `${NOTHING} (0/${proportion.n})` : NOTHING;
  if (scale.kind === "rate") return proportion ? formatRateShort(proportion) : formatPercent(value, 0);
  return scale.kind === "count" ? formatCount(value) : scale.format(value);
}

/** A category tick cut to LABEL_CHARS, with the full text as its SVG title (the table beside has it too). */
function CategoryTick({ x, y, payload }: { x?: number; y?: number; payload?: { value: string } }) {
  const full = payload?.value ?? "";
  return (
    <text x={x} y={y} dy={4} textAnchor="end" fontSize={12} fill="#334155">
      <title>{full}</title>
      {shortLabel(full)}
    </text>
  );
}

function toRows(data: ChartDatum[], series: ChartSeries[]): Row[] {
  return data.map((d) => {
    const row: Row = { label: d.label, hrefs: d.hrefs ?? {}, proportions: d.proportions ?? {} };
    for (const s of series) {
      const value = d.values[s.key] ?? null;
      const p = d.proportions?.[s.key];
      row[s.key] = value;
      // the error bar is drawn as offsets below and above the value
      row[`${s.key}__ci`] =
        value !== null && p?.low != null && p.high != null ? [value - p.low, p.high - value] : [0, 0];
    }
    return row;
  });
}

/** Bars per category, one per series (a single series is an ordinary bar chart). */
export function GroupedBarChart({ title, data, series, scale, testId, emptyText = "No data yet." }: GroupedProps) {
  const router = useRouter();
  const empty = data.every((d) => series.every((s) => d.values[s.key] === null || d.values[s.key] === undefined));
  const rows = toRows(data, series);
  const height = Math.max(120, data.length * series.length * ROW_HEIGHT * 0.8 + 70);
  const axis = valueAxis(scale);
  const tooltipText = (value: unknown, key: string, row: Row | undefined) => {
    const p = row?.proportions[key];
    if (p) return formatRate(p);
    return barText(scale, value, null);
  };
  return (
    <figure className="min-w-0" data-testid={testId}>
      <figcaption className="mb-1 text-sm font-medium">{title}</figcaption>
      {empty && (
        <p className="text-sm text-slate-600" data-testid={testId ? `${testId}-empty` : undefined}>
          {emptyText}
        </p>
      )}
      {scale.kind === "rate" && !empty && (
        <p className="text-xs text-slate-600">Whiskers: 95 % Wilson interval; beside each bar: successes / n.</p>
      )}
      <div style={{ height }} role="img" aria-label={title}>
        <ResponsiveContainer width="100%" height="100%">
          <RechartsBarChart data={rows} layout="vertical" margin={{ left: 8, right: 96, top: 4, bottom: 4 }}>
            <CartesianGrid horizontal={false} stroke="#e2e8f0" />
            <XAxis type="number" {...axis} fontSize={11} />
            <YAxis type="category" dataKey="label" width={LABEL_CHARS * 7} interval={0} tick={<CategoryTick />} />
            <Tooltip
              formatter={(value, _name, item) =>
                tooltipText(value, String(item.dataKey), item.payload as Row | undefined)
              }
              labelFormatter={(label) => String(label ?? "")}
            />
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
                  const href = (entry.payload as Row | undefined)?.hrefs?.[s.key];
                  if (href) router.push(href);
                }}
              >
                {scale.kind === "rate" && (
                  <ErrorBar dataKey={`${s.key}__ci`} width={4} stroke="#0f172a" isAnimationActive={false} />
                )}
                <LabelList
                  position="right"
                  fontSize={11}
                  dataKey={(row: Row) => barText(scale, row[s.key], row.proportions[s.key])}
                />
              </Bar>
            ))}
          </RechartsBarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

type Props = { title: string; bars: Bar[]; scale: ChartScale; testId?: string; emptyText?: string };

/** One bar per label; the note goes to the label and the table beside. */
export function BarChart({ bars, ...rest }: Props) {
  const data = bars.map((b) => ({
    label: b.note ? `${b.label} (${b.note})` : b.label,
    values: { value: b.value },
    hrefs: b.href ? { value: b.href } : undefined,
    proportions: b.proportion ? { value: b.proportion } : undefined,
  }));
  return <GroupedBarChart {...rest} data={data} series={[{ key: "value", name: rest.title }]} />;
}

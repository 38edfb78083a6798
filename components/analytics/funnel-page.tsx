"use client";
import { FUNNEL_DIMENSIONS, FUNNEL_STAGES, type FunnelResult } from "@/lib/analytics/funnel";
import { TaskSource } from "@/lib/db/enums";
import { GroupedBarChart } from "@/components/charts/bar-chart";
import { ChartBeside, FilterSelect } from "./analytics-frame";
import { AnalyticsPage } from "./analytics-page";
import { FigureTable } from "./figure-table";

const MAX_SERIES = 8;
const BY_OPTIONS = [
  { value: "", label: "all tasks together" },
  ...Object.entries(FUNNEL_DIMENSIONS).map(([value, d]) => ({ value, label: d.label })),
];
const SOURCE_OPTIONS = [
  { value: "", label: "every source" },
  ...Object.values(TaskSource).map((s) => ({ value: s, label: s })),
];

function FunnelCharts({ data }: { data: FunnelResult }) {
  const groups = data.groups.slice(0, MAX_SERIES);
  const series = groups.map((g, i) => ({ key: `g${i}`, name: g }));
  const stageData = FUNNEL_STAGES.map((stage) => {
    const values: Record<string, number | null> = {};
    const hrefs: Record<string, string> = {};
    groups.forEach((group, i) => {
      const key = `${group}|${stage.key}`;
      values[`g${i}`] = (data.stages.rows.find((r) => r.key === key)?.tasks as number | undefined) ?? null;
      hrefs[`g${i}`] = data.stages.drill[key]?.tasks;
    });
    return { label: stage.label, values, hrefs };
  });
  const dropData = data.drops.rows.map((row) => ({
    label: `${groups.length > 1 ? `${row.group} · ` : ""}${row.gate}: ${row.cause}`,
    values: { tasks: row.tasks as number },
    hrefs: { tasks: data.drops.drill[row.key]?.tasks },
  }));
  return (
    <div className="flex flex-col gap-8">
      <ChartBeside
        chart={
          <GroupedBarChart
            title="Tasks reaching each gate"
            testId="funnel-chart"
            data={stageData}
            series={series}
            scale={{ kind: "count" }}
            emptyText="No task has been imported yet."
          />
        }
        table={<FigureTable table={data.stages} testId="funnel-table" />}
      />
      {data.groups.length > MAX_SERIES && (
        <p className="text-xs text-slate-600">
          The chart shows the first {MAX_SERIES} of {data.groups.length} groups; the table has them all.
        </p>
      )}
      <ChartBeside
        chart={
          <GroupedBarChart
            title="Where tasks drop, and why"
            testId="drops-chart"
            data={dropData}
            series={[{ key: "tasks", name: "tasks" }]}
            scale={{ kind: "count" }}
            emptyText="No task has dropped out yet."
          />
        }
        table={<FigureTable table={data.drops} testId="drops-table" />}
      />
    </div>
  );
}

export function FunnelPage() {
  return (
    <AnalyticsPage<FunnelResult>
      page="funnel"
      tables={[
        { name: "stages", label: "Stages" },
        { name: "drops", label: "Drops" },
      ]}
      filters={(urlFilter) => (
        <>
          <FilterSelect label="Split by" {...urlFilter("by")} options={BY_OPTIONS} />
          <FilterSelect label="Source" {...urlFilter("source")} options={SOURCE_OPTIONS} />
        </>
      )}
    >
      {(funnel) => <FunnelCharts data={funnel} />}
    </AnalyticsPage>
  );
}

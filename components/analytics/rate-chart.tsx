"use client";
import type { FigureTable as Table } from "@/lib/analytics/figures";
import { GroupedBarChart } from "@/components/charts/bar-chart";
import { ChartBeside } from "./analytics-frame";
import { FigureTable } from "./figure-table";
import { rateChartData, type RateSeries } from "./chart-data";

/** A table's rates as bars, each opening the tasks behind it, beside the table; `testId` names both. */
export function RateChartBeside({
  title,
  table,
  rates,
  testId,
  emptyText,
}: {
  title: string;
  table: Table;
  rates: RateSeries[];
  testId: string;
  emptyText: string;
}) {
  return (
    <ChartBeside
      chart={
        <GroupedBarChart
          title={title}
          testId={`${testId}-chart`}
          data={rateChartData(table, rates)}
          series={rates}
          scale={{ kind: "rate" }}
          emptyText={emptyText}
        />
      }
      table={<FigureTable table={table} testId={`${testId}-table`} />}
    />
  );
}

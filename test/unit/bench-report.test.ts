import { describe, expect, it } from "vitest";
import { document, formatRatio, formatValue, table, type Results } from "../../scripts/bench-report";

// npm run bench:report turns the benches' figures into docs/performance.md: times, memory and
// counts (errors, decisions lost) each shown in their unit, with their same-run baseline.

const results: Results = {
  bench: "load",
  measuredAt: "2026-12-06T06:01:22.630Z",
  machine: { cores: 2, load1: 0.4, busy: false, description: "quiet (load 0.4 on 2 cores)" },
  options: { seconds: 60, clients: 50 },
  figures: [
    {
      figure: "load, task list (filters), p99",
      measured: 120.04,
      baselineName: "one client alone, p50",
      baseline: 40,
      unit: "ms",
      target: "< 200 ms",
      met: true,
    },
    {
      figure: "load, web server memory after",
      measured: 231.6,
      baselineName: "at start",
      baseline: 220.2,
      unit: "MB",
      target: "within 10 % of start",
      met: true,
    },
    {
      figure: "load, errors",
      measured: 3,
      baselineName: "requests sent",
      baseline: 12_000,
      unit: "count",
      target: "0",
      met: false,
    },
    {
      figure: "load, decisions lost",
      measured: 0,
      baselineName: "decisions accepted (201)",
      baseline: 0,
      unit: "count",
      target: "0",
      met: null,
    },
  ],
};

describe("the bench report", () => {
  it("shows each value in its unit", () => {
    expect(formatValue(12.345, "ms")).toBe("12.3 ms");
    expect(formatValue(231.64, "MB")).toBe("231.6 MB");
    expect(formatValue(12000, "count")).toBe("12,000");
    expect(formatValue(0, "count")).toBe("0");
    expect(formatValue(NaN, "ms")).toBe("—");
  });

  it("gives a time's or memory's ratio as a multiple and a count's as its share of the baseline", () => {
    expect(formatRatio({ measured: 120, baseline: 40, unit: "ms" })).toBe("3.00×");
    expect(formatRatio({ measured: 231.6, baseline: 220.2, unit: "MB" })).toBe("1.05×");
    expect(formatRatio({ measured: 3, baseline: 12_000, unit: "count" })).toBe("0.03 %");
    // nothing to count out of: no ratio rather than NaN or Infinity
    expect(formatRatio({ measured: 0, baseline: 0, unit: "count" })).toBe("—");
  });

  it("renders one row per figure with its baseline, ratio, target, verdict and the machine's state", () => {
    const rendered = table(results);
    expect(rendered).toContain("## npm run bench:load");
    expect(rendered).toContain("(seconds 60, clients 50); machine quiet (load 0.4 on 2 cores).");
    expect(rendered).toContain(
      "| load, task list (filters), p99 | 120.0 ms | 40.0 ms one client alone, p50 | 3.00× | < 200 ms | met | quiet |",
    );
    expect(rendered).toContain(
      "| load, web server memory after | 231.6 MB | 220.2 MB at start | 1.05× | within 10 % of start | met | quiet |",
    );
    expect(rendered).toContain("| load, errors | 3 | 12,000 requests sent | 0.03 % | 0 | **missed** | quiet |");
    expect(rendered).toContain("| load, decisions lost | 0 | 0 decisions accepted (201) | — | 0 | — | quiet |");
    expect(document([results])).toMatch(/^# Performance\n[\s\S]*## npm run bench:load/);
  });

  it("shows beside a median the middle half of the samples it came from", () => {
    const page = {
      ...results,
      bench: "pages",
      figures: [
        {
          figure: "page task, main content, median of 9",
          measured: 288.4,
          spread: { low: 261.2, high: 305.7 },
          baselineName: "the server's response",
          baseline: 60,
          unit: "ms" as const,
          target: "< 300 ms",
          met: true,
        },
      ],
    };
    expect(table(page)).toContain(
      "| page task, main content, median of 9 | 288.4 ms (middle half 261–306) | 60.0 ms the server's response | 4.81× |",
    );
  });
});

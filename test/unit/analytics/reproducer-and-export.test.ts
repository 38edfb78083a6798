import { describe, expect, it } from "vitest";
import { isReproducerStep, ranReproducer } from "@/lib/trajectories/reproducer";
import { tableToCsv } from "@/lib/analytics/export-table";
import { rateCells, rateColumn } from "@/lib/analytics/figures";
import { decodeSlice, encodeSlice } from "@/lib/analytics/slice-key";

describe("did a review run a reproducer", () => {
  it.each([
    ["python reproduce.py", true],
    ["cd /repo && python -m pytest tests/test_ops.py -q", true],
    ["python3 -c 'from calc import mean; mean([])'", true],
    ["bash run_tests.sh", true],
    ["cat calc/ops.py", false],
    ["pip install -e .", false],
    ["python -m pip install requests", false],
    ['grep -rn "python" .', false],
    ['find . -name "*.py"', false],
  ])("%s → %s", (action, expected) => {
    expect(isReproducerStep({ action })).toBe(expected);
  });

  it("a recorded step kind wins over the action's words", () => {
    expect(isReproducerStep({ action: "python x.py", kind: "read" })).toBe(false);
    expect(isReproducerStep({ action: null, kind: "reproduce" })).toBe(true);
  });

  it("a review without steps says nothing", () => {
    expect(ranReproducer([])).toBeNull();
    expect(ranReproducer([{ action: "cat a.py" }, { action: "pytest -x" }])).toBe(true);
  });
});

describe("exports and slices", () => {
  it("CSV has the table's columns in order, quotes what needs it and defuses spreadsheet formulas", () => {
    const csv = tableToCsv({
      columns: [
        { key: "name", label: "Name", kind: "text" },
        { key: "mean", label: "Mean", kind: "percent" },
      ],
      rows: [
        { key: "1", name: 'a, "b"', mean: 0.5 },
        { key: "2", name: "=cmd()", mean: null },
      ],
    });
    expect(csv).toBe('Name,Mean\r\n"a, ""b""",0.5\r\n\'=cmd(),\r\n');
  });

  it("a rate travels in the CSV with its successes, n and 95 % Wilson interval", () => {
    const csv = tableToCsv({
      columns: [{ key: "name", label: "Name", kind: "text" }, rateColumn("accuracy", "Accuracy")],
      rows: [
        { key: "1", name: "one of one", ...rateCells("accuracy", 1, 1) },
        { key: "2", name: "none measured", ...rateCells("accuracy", 0, 0) },
      ],
    });
    const [header, one, none] = csv.split("\r\n");
    expect(header).toBe(
      "Name,Accuracy,Accuracy (successes),Accuracy (n),Accuracy (95 % CI low),Accuracy (95 % CI high)",
    );
    expect(one).toMatch(/^one of one,1,1,1,0\.2065\d*,1$/);
    expect(none).toBe("none measured,,0,0,,");
  });

  it("a slice survives values with separators", () => {
    const text = encodeSlice("reviewers", { reviewer: "org/model;v=2", outcome: "falseApproval" });
    expect(decodeSlice(text)).toEqual({
      page: "reviewers",
      params: { reviewer: "org/model;v=2", outcome: "falseApproval" },
    });
    expect(decodeSlice("nonsense;x=1")).toBeNull();
  });
});

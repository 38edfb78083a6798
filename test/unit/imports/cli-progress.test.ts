import { describe, expect, it } from "vitest";
import { describeProgress, Progress } from "../../../lib/cli/progress";

function sink(isTTY: boolean) {
  const chunks: string[] = [];
  const stream = {
    isTTY,
    columns: 80,
    write: (chunk: string) => (chunks.push(chunk), true),
  } as unknown as NodeJS.WriteStream;
  return { stream, chunks };
}

describe("CLI progress", () => {
  const state = {
    label: "big.jsonl",
    bytesRead: 5 * 1024 * 1024,
    bytesTotal: 10 * 1024 * 1024,
    records: 2500,
    failed: 3,
    startedAt: 0,
  };

  it("says records, failures, records/s and bytes", () => {
    expect(describeProgress(state, 2000)).toEqual({
      percent: 50,
      text: "2,500 records (3 failed), 1,250 records/s, 5.0 MB of 10.0 MB",
    });
  });

  it("counts a trajectory file's progress in steps and bytes, not in its one record", () => {
    const trajectory = {
      label: "run.traj",
      bytesRead: 52 * 1024 * 1024,
      bytesTotal: 104 * 1024 * 1024,
      records: 0,
      failed: 0,
      startedAt: 0,
      steps: 50_000,
    };
    expect(describeProgress(trajectory, 10_000).text).toBe(
      "0 records, 50,000 steps, 5,000 steps/s, 52.0 MB of 104.0 MB",
    );
  });

  it("redraws one bar on a terminal", () => {
    const { stream, chunks } = sink(true);
    const progress = new Progress(stream, true);
    progress.update(state);
    progress.update({ ...state, bytesRead: state.bytesTotal });
    progress.done();
    expect(chunks[0]).toMatch(/^\rbig\.jsonl \[#{12}\.{12}\]  50% /);
    expect(chunks[1]).toMatch(/\[#{24}\] 100%/);
    expect(chunks.at(-1)).toBe("\r\x1b[K");
    expect(chunks.join("")).not.toContain("\n");
  });

  it("writes plain lines, at most one per interval, when piped", () => {
    const { stream, chunks } = sink(false);
    const progress = new Progress(stream, false, 60_000);
    progress.update(state);
    progress.update(state);
    progress.done();
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatch(
      /^big\.jsonl: 50%, 2,500 records \(3 failed\), [\d,]+ records\/s, 5\.0 MB of 10\.0 MB\n$/,
    );
  });
});

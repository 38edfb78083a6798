import { describe, expect, it } from "vitest";
import { idleCollectionRule } from "../../lib/process/idle-memory";

// The web server collects its heap once after a busy stretch, at the first quiet check, and
// never while it serves (a full collection would add to every request's time).
describe("collecting the web server's heap when it goes quiet", () => {
  it("collects once at the first quiet check after busy ones, not again while it stays quiet", () => {
    const shouldCollect = idleCollectionRule();
    expect([0.6, 0.9, 0.01, 0.0, 0.02].map(shouldCollect)).toEqual([false, false, true, false, false]);
  });

  it("never collects while the server is busy, however long", () => {
    const shouldCollect = idleCollectionRule();
    expect(Array.from({ length: 50 }, () => shouldCollect(0.5)).some(Boolean)).toBe(false);
  });

  it("does not collect for a server that was never busy", () => {
    const shouldCollect = idleCollectionRule();
    expect([0, 0.01, 0.03].map(shouldCollect)).toEqual([false, false, false]);
  });

  it("collects again after a second busy stretch", () => {
    const shouldCollect = idleCollectionRule();
    expect([0.8, 0, 0.7, 0.3, 0].map(shouldCollect)).toEqual([false, true, false, false, true]);
  });
});

describe("a process that went quiet after a burst", () => {
  it("gives the burst's garbage back: its heap shrinks to near where it started", async () => {
    const { execFileSync } = await import("node:child_process");
    // The burst is a fixed amount of work (not a time box), ~200 MB of short-lived objects churning; V8 keeps the heap
    // it grew to until collected. Then the child waits by condition: it polls its heap until it has given back 80 % of
    // the growth, or gives up after 60 s and reports what it saw, so a slow machine only makes it wait longer.
    const script = `
      import { returnMemoryWhenIdle } from ${JSON.stringify(new URL("../../lib/process/idle-memory.ts", import.meta.url).pathname)};
      const heapMb = () => process.memoryUsage().heapTotal / 1e6;
      const start = heapMb();
      returnMemoryWhenIdle(250);
      let keep = [];
      for (let round = 0; round < 60; round++) { keep.push(Array.from({ length: 50000 }, (_, i) => ({ i, s: "x" + i }))); if (keep.length > 40) keep.shift(); }
      keep = null;
      const peak = heapMb();
      const deadline = Date.now() + 60_000;
      while (heapMb() >= start + (peak - start) * 0.2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      console.log(JSON.stringify({ start, peak, after: heapMb() }));
    `;
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    const { start, peak, after } = JSON.parse(out.trim().split("\n").pop()!) as {
      start: number;
      peak: number;
      after: number;
    };
    expect(peak).toBeGreaterThan(start + 100);
    expect(
      after,
      `the heap stayed at ${after.toFixed(0)} MB (started at ${start.toFixed(0)}, peaked at ${peak.toFixed(0)}) for 60 s of quiet`,
    ).toBeLessThan(start + (peak - start) * 0.2);
  }, 120_000);
});

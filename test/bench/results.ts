import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";

// Each bench writes its figures here as JSON; `npm run bench:report` turns every file into the
// tables of docs/performance.md. A figure is only meaningful against a baseline timed in the
// same run on the same machine, so each carries both, and the machine's load while it ran.

export const RESULTS_DIR = path.join(import.meta.dirname, "..", "..", "docs", "bench-results");

export type FigureUnit = "ms" | "MB" | "count";

export type Figure = {
  /** what a person waits on, e.g. "analytics, reviewers page, p95" */
  figure: string;
  measured: number;
  /** what the figure is compared with, timed in the same run (raw SQL, the server's response …) */
  baselineName: string;
  baseline: number;
  /**
   * ms: a time; MB: memory; count: a number of things (errors, decisions lost), whose baseline is
   * what it is counted out of (requests sent, decisions accepted), so its ratio is a share.
   */
  unit: FigureUnit;
  /** the target, in words, as the issue states it */
  target: string;
  /** null: a figure kept for context, with no target of its own */
  met: boolean | null;
  /** the middle half of the samples the measured median came from (25th to 75th percentile): how much it moves run to run */
  spread?: { low: number; high: number };
};

export type MachineState = { cores: number; load1: number; busy: boolean; description: string };

/** A machine is called busy when more runnable work waits than it has cores for the bench. */
export function machineState(): MachineState {
  const cores = cpus().length;
  const load1 = loadavg()[0];
  const busy = load1 > cores * 0.5;
  return { cores, load1, busy, description: `${busy ? "busy" : "quiet"} (load ${load1.toFixed(1)} on ${cores} cores)` };
}

/**
 * Writes docs/bench-results/<bench>.json: the figures of this run, the machine's state when it
 * began (bench:load --busy passes its state during its runs) and the load at its end.
 * `command`: how to run it again, when it is not plain `npm run bench:<bench>`.
 */
export function writeBenchResults(
  bench: string,
  figures: Figure[],
  atStart: MachineState,
  options: Record<string, unknown> = {},
  command = `npm run bench:${bench}`,
) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  // other work is what loaded the machine before the bench began: by its end the bench's own
  // server, database and browser have raised the load average, which says nothing of the machine
  const machine = { ...atStart, loadAtEnd: Number(machineState().load1.toFixed(2)) };
  const file = path.join(RESULTS_DIR, `${bench}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ bench, command, measuredAt: new Date().toISOString(), machine, options, figures }, null, 2)}\n`,
  );
  console.log(
    `[bench] figures written to ${path.relative(process.cwd(), file)} (machine ${machine.description}); npm run bench:report updates docs/performance.md`,
  );
}

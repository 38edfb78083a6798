import type { ReplayAction } from "./replay-actions";
import type { ReplayMarkers } from "./replay-script";

// Cutting the container's output into each step's output, and comparing it with the recorded
// observation. The comparison normalises what a terminal or an agent adds around the same
// output, and nothing else (the page says so, beside the diff):
//   - ANSI escape sequences (colours, cursor moves) are removed;
//   - CRLF and a carriage return at a line's end become a plain line end;
//   - trailing whitespace on each line, and blank lines at the start and end, are dropped;
//   - what the agent's harness wrote instead of or after the output: SWE-agent's "Your command
//     ran successfully and did not produce any output." and an `OBSERVATION:` heading,
//     OpenHands' `[Command finished with exit code N]` / `[The command completed …]` lines.
// Case, inner whitespace, paths, timings and ordering are compared as they are.

export type StepOutcome = "same" | "different" | "applied" | "failed" | "skipped" | "timed-out" | "not-reached";

export type ReplayedStep = {
  index: number;
  how: ReplayAction["how"];
  /** the command, or the file written, as the page shows it */
  act: string;
  recorded: string | null;
  replayed: string | null;
  exitCode: number | null;
  outcome: StepOutcome;
  note: string | null;
};

// CSI (ESC [ … final byte), OSC (ESC ] … BEL or ESC \), and two-byte escapes
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
const HARNESS_LINES = [
  /^OBSERVATION:$/,
  /^\[Command finished with exit code -?\d+\]$/,
  /^\[The command completed with exit code -?\d+\.?\]$/,
  /^\[Current working directory: .*\]$/,
  /^\[Python interpreter: .*\]$/,
];
const NO_OUTPUT = /^Your command ran successfully and did not produce any output\.?$/;

/** The text as the comparison sees it (see the rules above). */
export function normaliseOutput(text: string): string {
  const lines = text
    .replace(ANSI, "")
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => !HARNESS_LINES.some((pattern) => pattern.test(line)) && !NO_OUTPUT.test(line));
  while (lines.length && !lines[0]) lines.shift();
  while (lines.length && !lines.at(-1)) lines.pop();
  return lines.join("\n");
}

type Cut = { output: string; exitCode: number | null; ended: boolean };

/** Each step's output between its markers; a step begun but never ended (time limit, `exit`) has ended false. */
export function cutReplayOutput(log: string, markers: ReplayMarkers): Map<number, Cut> {
  const cuts = new Map<number, Cut>();
  const begin = new RegExp(`^@@swe-curator-replay ${markers.nonce} begin (\\d+)$`);
  const end = new RegExp(`^@@swe-curator-replay ${markers.nonce} end (\\d+) (\\d+)$`);
  let current: { index: number; lines: string[] } | null = null;
  for (const line of log.split("\n")) {
    const opened = begin.exec(line);
    const closed = end.exec(line);
    if (opened) {
      current = { index: Number(opened[1]), lines: [] };
      cuts.set(current.index, { output: "", exitCode: null, ended: false });
    } else if (closed && current && Number(closed[1]) === current.index) {
      // the end marker is printed after a newline of its own, which is the separator before it: the join is the output exactly
      cuts.set(current.index, { output: current.lines.join("\n"), exitCode: Number(closed[2]), ended: true });
      current = null;
    } else if (current) {
      current.lines.push(line);
      cuts.set(current.index, { output: current.lines.join("\n"), exitCode: null, ended: false });
    }
  }
  return cuts;
}

/** How many actions have finished so far in a growing log: the number of end markers. */
export const endedActions = (log: string, markers: ReplayMarkers) => log.split(markers.end("")).length - 1;

function actOf(action: ReplayAction): string {
  switch (action.how) {
    case "shell":
      return action.command;
    case "write":
      return `write ${action.path}`;
    case "edit":
      return `${action.edit.operation} in ${action.edit.path}`;
    case "skip":
      return "";
  }
}

function outcomeOf(
  action: ReplayAction,
  recorded: string | null,
  cut: Cut | undefined,
  stoppedBy: string | null,
): Pick<ReplayedStep, "outcome" | "note"> {
  if (action.how === "skip") return { outcome: "skipped", note: action.reason };
  if (!cut)
    return {
      outcome: "not-reached",
      note: stoppedBy ? `not run: ${stoppedBy}` : "not run: the shell ended before this step",
    };
  if (!cut.ended)
    return { outcome: "timed-out", note: stoppedBy ?? "the shell ended during this step (an `exit` in the command?)" };
  if (action.how !== "shell") {
    // an editor's observation is its own report (a snippet, "File created"), not the command's output
    return cut.exitCode === 0
      ? { outcome: "applied", note: "the edit was applied; an editor's report is not compared" }
      : { outcome: "failed", note: "the edit did not apply" };
  }
  return normaliseOutput(recorded ?? "") === normaliseOutput(cut.output)
    ? { outcome: "same", note: null }
    : { outcome: "different", note: null };
}

/** Every replayed step beside its recorded observation, marked same or different. */
export function compareReplay(
  actions: ReplayAction[],
  recorded: Map<number, string | null>,
  log: string,
  markers: ReplayMarkers,
  stoppedBy: string | null,
): ReplayedStep[] {
  const cuts = cutReplayOutput(log, markers);
  return actions.map((action) => {
    const cut = cuts.get(action.index);
    return {
      index: action.index,
      how: action.how,
      act: actOf(action),
      recorded: recorded.get(action.index) ?? null,
      replayed: cut ? cut.output : null,
      exitCode: cut?.exitCode ?? null,
      ...outcomeOf(action, recorded.get(action.index) ?? null, cut, stoppedBy),
    };
  });
}

import { describe, expect, it } from "vitest";
import { replayActionOf } from "@/lib/trajectories/replay/replay-actions";
import { compareReplay, normaliseOutput } from "@/lib/trajectories/replay/replay-output";
import { replayMarkers } from "@/lib/trajectories/replay/replay-script";

describe("what a replay runs for a step", () => {
  it("runs shell commands of every format, writes created files, applies region edits in the container, skips the agent's viewer", () => {
    expect(replayActionOf({ index: 0, action: "ls calc" })).toEqual({ index: 0, how: "shell", command: "ls calc" });
    expect(replayActionOf({ index: 1, action: 'bash({"command": "pytest -q"})' })).toEqual({
      index: 1,
      how: "shell",
      command: "pytest -q",
    });
    expect(replayActionOf({ index: 2, action: "python3 -c 1", metadata: { kind: "run" } })).toMatchObject({
      how: "shell",
    });
    expect(
      replayActionOf({ index: 3, action: "str_replace_editor create /testbed/a.py --file_text 'x = 1\n'" }),
    ).toEqual({ index: 3, how: "write", path: "/testbed/a.py", content: "x = 1\n" });
    expect(
      replayActionOf({
        index: 4,
        action: "str_replace_editor str_replace /testbed/a.py --old_str 'x = 1' --new_str 'x = 2'",
      }),
    ).toMatchObject({ how: "edit", edit: { operation: "replace", before: "x = 1", after: "x = 2" } });
    expect(replayActionOf({ index: 5, action: "open calc/ops.py" })).toMatchObject({
      how: "skip",
      reason: expect.stringContaining("`open`"),
    });
    expect(replayActionOf({ index: 6, action: "str_replace_editor view /testbed/a.py" })).toMatchObject({
      how: "skip",
    });
    expect(replayActionOf({ index: 7, action: "" })).toMatchObject({ how: "skip", reason: "the step has no action" });
  });
});

describe("comparing a replayed output with the recording", () => {
  it("ignores colour codes, CRLF, trailing spaces, edge blank lines and the harness's no-output sentence, but not case or inner spaces", () => {
    expect(normaliseOutput("\u001b[31mFAILED\u001b[0m test_a  \r\n\n")).toBe("FAILED test_a");
    expect(normaliseOutput("Your command ran successfully and did not produce any output.")).toBe("");
    expect(normaliseOutput("ok\n[Command finished with exit code 0]")).toBe("ok");
    expect(normaliseOutput("a  b")).not.toBe(normaliseOutput("a b"));
    expect(normaliseOutput("Error")).not.toBe(normaliseOutput("error"));
  });

  it("cuts the log at its markers, keeps each command's own last newline, and tells a step the time limit stopped from one never reached", () => {
    const markers = replayMarkers("n0nce");
    const actions = [
      { index: 0, how: "shell" as const, command: "echo hi" },
      { index: 2, how: "shell" as const, command: "printf x" },
      { index: 3, how: "shell" as const, command: "sleep 99" },
      { index: 4, how: "shell" as const, command: "true" },
    ];
    // a forged marker with another nonce in a command's output is output
    const log = [
      markers.begin(0),
      "hi",
      "@@swe-curator-replay other end 0 0",
      "",
      `${markers.end(0)} 0`,
      markers.begin(2),
      "x",
      `${markers.end(2)} 1`,
      markers.begin(3),
      "zz",
    ].join("\n");
    const recorded = new Map([
      [0, "hi\n@@swe-curator-replay other end 0 0\n"],
      [2, "y"],
      [3, ""],
      [4, ""],
    ]);
    const steps = compareReplay(actions, recorded, log, markers, "the time limit");
    expect(steps.map((s) => [s.index, s.outcome, s.replayed, s.exitCode])).toEqual([
      [0, "same", "hi\n@@swe-curator-replay other end 0 0\n", 0],
      [2, "different", "x", 1],
      [3, "timed-out", "zz", null],
      [4, "not-reached", null, null],
    ]);
    expect(steps[2].note).toBe("the time limit");
  });
});

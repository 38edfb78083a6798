import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { produceSweAgentTrajectory } from "../../../lib/imports/formats/swe-agent-trajectory/map";
import { OpenHandsStepper } from "../../../lib/imports/formats/openhands-trajectory/map";
import { inspectSample } from "../../../lib/imports/formats/inspect-log/map";
import { chatSteps } from "../../../lib/imports/formats/chat-steps";
import type { StepRecord } from "../../../lib/imports/records/trajectory-record";
import { classifyCommand, classifyStep } from "../../../lib/trajectories/step-kind";

// Real runs of each format, read by the importers users use, then classified.
const fixture = (...parts: string[]) => path.resolve(import.meta.dirname, "../../fixtures", ...parts);

async function sweAgentKinds(file: string, from: "trajectory" | "history") {
  const steps: StepRecord[] = [];
  await produceSweAgentTrajectory(
    createReadStream(fixture(file)),
    path.basename(file),
    { add: async (s) => void steps.push(s) },
    from,
  );
  return steps.map(classifyStep);
}

describe("steps by kind across formats", () => {
  it("reads SWE-agent 0.x commands: create/edit are edits, find_file a search, open a read, submit", async () => {
    expect(await sweAgentKinds("swe-agent/pydicom__pydicom-1458.traj", "trajectory")).toEqual([
      "EDIT",
      "EDIT",
      "RUN",
      "SEARCH",
      "READ",
      // three edits SWE-agent refused for syntax errors, then the one it took
      "ERROR",
      "ERROR",
      "ERROR",
      "EDIT",
      "RUN",
      "RUN",
      "SUBMIT",
    ]);
  });

  it("reads mini-swe-agent's shell commands: heredoc and sed -i are edits, runtests.py a test run, the final echo a submission", async () => {
    const kinds = await sweAgentKinds("trajectories/mini-swe-agent_django__django-16255.traj.json", "history");
    expect(kinds.slice(0, 5)).toEqual(["READ", "READ", "EDIT", "RUN", "EDIT"]);
    expect(kinds).toContain("TEST");
    expect(kinds.at(-1)).toBe("SUBMIT");
  });

  it("reads OpenHands events: read, grep, refused and accepted edits, think and finish", () => {
    const line = JSON.parse(
      readFileSync(fixture("trajectories/openhands_multi_swe_bench_output.jsonl"), "utf8").split("\n")[0],
    );
    const stepper = new OpenHandsStepper();
    const steps = [...(line.history as unknown[]).flatMap((e) => stepper.add(e)), ...stepper.finish()];
    const kinds = steps.map(classifyStep);
    const edits = steps.filter((s) => s.action?.startsWith("edit "));
    expect(edits.map(classifyStep).slice(0, 2)).toEqual(["ERROR", "EDIT"]); // "No replacement was performed", then a real one
    expect(kinds).toEqual(expect.arrayContaining(["READ", "SEARCH", "THINK", "RUN"]));
    expect(kinds.at(-1)).toBe("SUBMIT");
  });

  it("reads tool calls (SWE-Gym's OpenHands rows): view is a read, create/str_replace edits, a view with a bad range an error", () => {
    const rows = JSON.parse(readFileSync(fixture("trajectories/swe-gym_openhands_sampled_trajectories.json"), "utf8"));
    const kinds = chatSteps(rows[0].messages, "messages").map(classifyStep);
    expect(kinds.slice(0, 6)).toEqual(["ERROR", "READ", "ERROR", "READ", "EDIT", "RUN"]);
    expect(kinds).toContain("EDIT");
    expect(kinds.at(-1)).toBe("SUBMIT");
  });

  it("marks Inspect tool errors as errors", () => {
    const log = JSON.parse(readFileSync(fixture("trajectories/inspect_log_tool_call_error.json"), "utf8"));
    const { steps } = inspectSample(log.samples[0], log.eval, "log.json");
    expect(
      steps
        .filter((s) => s.metadata?.toolError)
        .map(classifyStep)
        .every((k) => k === "ERROR"),
    ).toBe(true);
  });

  it("tells test runs from other commands by what runs, not by a file name", () => {
    expect(classifyCommand("cd /testbed && python -m pytest tests/test_x.py -q")).toBe("TEST");
    expect(classifyCommand("./tests/runtests.py admin_views")).toBe("TEST");
    expect(classifyCommand("ls tests/runtests.py")).toBe("READ");
    expect(classifyCommand("grep -rn pytest setup.cfg")).toBe("SEARCH");
    expect(classifyCommand("python reproduce.py > /dev/null")).toBe("RUN");
    expect(classifyCommand("echo 'x = 1' > fix.py")).toBe("EDIT");
  });
});

import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { produceSweAgentTrajectory, type StepsFrom } from "../../../lib/imports/formats/swe-agent-trajectory/map";
import { OpenHandsStepper } from "../../../lib/imports/formats/openhands-trajectory/map";
import { chatSteps } from "../../../lib/imports/formats/chat-steps";
import type { StepRecord } from "../../../lib/imports/records/trajectory-record";
import { linesSeen, parseStepEdit } from "../../../lib/trajectories/step-edits";

const fixture = (...parts: string[]) => path.resolve(import.meta.dirname, "../../fixtures", ...parts);

async function sweAgentSteps(file: string, from: StepsFrom) {
  const steps: StepRecord[] = [];
  await produceSweAgentTrajectory(
    createReadStream(fixture(file)),
    path.basename(file),
    { add: async (s) => void steps.push(s) },
    from,
  );
  return steps;
}

describe("edit actions as regions before and after", () => {
  it("reads SWE-agent 0.x line edits on the open file, the old lines from the window the agent last saw", async () => {
    const steps = await sweAgentSteps("swe-agent/pydicom__pydicom-1458.traj", "trajectory");
    const edit = parseStepEdit(steps[8])!;
    expect(edit).toMatchObject({
      path: "/pydicom__pydicom/pydicom/pixel_data_handlers/numpy_handler.py",
      operation: "lines",
      startLine: 287,
      endLine: 296,
      before: null,
    });
    expect(edit.after).toContain("required_elements.append('PixelRepresentation')");
    const before = linesSeen(
      steps
        .slice(0, 8)
        .reverse()
        .map((s) => s.observation),
      edit.path!,
      287,
      296,
    )!;
    expect(before.split("\n")).toHaveLength(10);
    expect(before).toContain("required_elements = [");
    expect(before).not.toContain("PixelRepresentation')");
    expect(parseStepEdit(steps[0])).toMatchObject({
      path: "reproduce_bug.py",
      operation: "create",
      before: "",
      after: "",
    });
    expect(parseStepEdit(steps[2])).toBeNull(); // python reproduce_bug.py
  });

  it("reads SWE-agent's search-and-replace edit, quoted like Python's shlex", async () => {
    const steps = await sweAgentSteps("trajectories/swe-agent_marshmallow-code__marshmallow-1867.traj", "trajectory");
    const edit = parseStepEdit(steps.find((s) => s.action?.startsWith("edit '"))!);
    expect(edit).toMatchObject({
      operation: "replace",
      before: "return int(value.total_seconds() / base_unit.total_seconds())",
      path: "/testbed/src/marshmallow/fields.py",
    });
    expect(edit!.after).toContain("return int(round(value.total_seconds() / base_unit.total_seconds()))");
  });

  it("reads str_replace_editor tool calls and OpenHands edit events", () => {
    const rows = JSON.parse(readFileSync(fixture("trajectories/swe-gym_openhands_sampled_trajectories.json"), "utf8"));
    const steps = chatSteps(rows[0].messages, "messages");
    const edits = steps.map(parseStepEdit).filter(Boolean);
    expect(edits[0]).toMatchObject({ operation: "create", path: "/workspace/python__mypy__1.6/reproduce_error.py" });
    expect(
      edits.some(
        (e) => e!.operation === "replace" && e!.path!.endsWith("mypy/plugins/attrs.py") && e!.before!.length > 0,
      ),
    ).toBe(true);

    const line = JSON.parse(
      readFileSync(fixture("trajectories/openhands_multi_swe_bench_output.jsonl"), "utf8").split("\n")[0],
    );
    const stepper = new OpenHandsStepper();
    const events = [...(line.history as unknown[]).flatMap((e) => stepper.add(e)), ...stepper.finish()];
    const accepted = events.map(parseStepEdit).filter(Boolean)[1]!;
    expect(accepted).toMatchObject({
      operation: "replace",
      path: "/workspace/ponylang__ponyc__0.1/src/libponyc/ast/parser.c",
    });
    expect(accepted.after).toContain("SET_FLAG(AST_FLAG_IN_PARENS)");
    expect(accepted.before).not.toContain("\nnew: ");
  });

  it("reads a shell heredoc into a file as its creation", async () => {
    const steps = await sweAgentSteps("trajectories/mini-swe-agent_django__django-16255.traj.json", "history");
    const edit = parseStepEdit(steps[2]);
    expect(edit).toMatchObject({ operation: "create", path: "reproduce_issue.py" });
    expect(edit!.after).toMatch(/^import os\nimport django/);
  });
});

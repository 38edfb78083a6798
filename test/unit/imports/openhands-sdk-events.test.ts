import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OpenHandsStepper, openHandsOutputLine } from "@/lib/imports/formats/openhands-trajectory/map";
import { detectFormat } from "@/lib/imports/formats/detect-format";

// Today's OpenHands events (the software-agent SDK, written by OpenHands/benchmarks into
// output.jsonl's history): string ids, `kind`, nested action and observation objects.
// A real public sample (test/fixtures/SOURCES.txt).

const events = readFileSync(path.join(import.meta.dirname, "../../fixtures/openhands/sdk_events__goal.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("OpenHands SDK events", () => {
  it("detects the SDK's events.jsonl, and an array of the same events, as one OpenHands run", () => {
    const jsonl = readFileSync(path.join(import.meta.dirname, "../../fixtures/openhands/sdk_events__goal.jsonl"));
    expect(detectFormat("events.jsonl", jsonl)).toEqual({ kind: "document", format: "OPENHANDS_TRAJECTORY" });
    expect(detectFormat("events.json", Buffer.from(JSON.stringify(events)))).toEqual({
      kind: "document",
      format: "OPENHANDS_TRAJECTORY",
    });
  });

  it("reads each action with the observations that answer it, skipping state updates", () => {
    const stepper = new OpenHandsStepper();
    const steps = [...events.flatMap((event) => stepper.add(event)), ...stepper.finish()];
    // two actions, and one observation answering an action the sample does not hold (its own step); no state update is a step
    expect(steps).toHaveLength(3);
    expect(steps[0].action).toContain('echo "SESSION_URL=${SESSION_URL}"');
    expect(steps[0].thought).toContain("Let me analyze the task");
    // the observation naming the action by its string action_id rides on that action's step
    expect(steps[0].observation).toContain("Cannot execute multiple commands at once");
    expect(steps.at(-1)!.observation).toContain("SESSION_URL=<secret-hidden>");
    expect(steps.every((step) => step.action || step.observation)).toBe(true);
  });

  it("reads a benchmarks output.jsonl line whose history holds SDK events, and keeps an empty patch from being a submission", () => {
    const line = {
      instance_id: "django__django-11099",
      attempt: 1,
      test_result: { git_patch: "  \n" },
      instruction: "fix it",
      metadata: { llm: { model: "litellm_proxy/minimax-m2.7" } },
      history: events,
      metrics: null,
      error: null,
    };
    const run = openHandsOutputLine(line);
    expect(run.header.model).toBe("litellm_proxy/minimax-m2.7");
    expect(run.header.submission).toBeNull();
    expect(run.steps).toHaveLength(3);
  });
});

import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { r2eGymActionText, r2eGymInstanceId, r2eGymRun } from "../../../lib/imports/formats/r2e-gym-trajectory/map";
import { describeInvalidRecord } from "../../../lib/imports/records/record-errors";
import { classifyStep } from "../../../lib/trajectories/step-kind";
import { parseStepEdit } from "../../../lib/trajectories/step-edits";

const record = () =>
  JSON.parse(
    readFileSync(path.join(import.meta.dirname, "../../fixtures/r2e-gym/trajectory_aiohttp_216e0828.json"), "utf8"),
  );

function invalid(value: unknown): string {
  try {
    r2eGymRun(value, "0".repeat(64));
  } catch (error) {
    if (error instanceof ZodError) return describeInvalidRecord(error);
    throw error;
  }
  throw new Error("the record was accepted");
}

describe("R2E-Gym actions", () => {
  it("reads the function call as R2E-Gym's Action.from_string does: the first function, every parameter, values stripped", () => {
    expect(
      r2eGymActionText(
        '<function=execute_bash>\n  <parameter=cmd>grep -n "MediaBox" /testbed/src/PIL/PdfImagePlugin.py</parameter>\n</function>',
      ),
    ).toBe('execute_bash({"cmd":"grep -n \\"MediaBox\\" /testbed/src/PIL/PdfImagePlugin.py"})');
    expect(
      r2eGymActionText(
        "<function = file_editor>\n<parameter = command>insert</parameter>\n<parameter=path>/testbed/a.py</parameter>\n<parameter=insert_line>12</parameter>\n<parameter=new_str>\n    x = 1\n    y = 2\n</parameter>\n</function>",
      ),
    ).toBe('file_editor({"command":"insert","path":"/testbed/a.py","insert_line":12,"new_str":"x = 1\\n    y = 2"})');
    expect(r2eGymActionText("<function=finish>\n</function>")).toBe("finish({})");
  });

  it("keeps what is no function call as it is, and an unclosed parameter out", () => {
    expect(r2eGymActionText("I will look at the file first.")).toBe("I will look at the file first.");
    expect(r2eGymActionText("  ")).toBeNull();
    expect(r2eGymActionText(null)).toBeNull();
    expect(r2eGymActionText("<function=execute_bash>\n<parameter=cmd>ls</parameter>\n<parameter=timeout>30")).toBe(
      'execute_bash({"cmd":"ls"})',
    );
  });

  it("gives the step kinds and edits the other formats' tool calls get", () => {
    const edit = r2eGymActionText(
      "<function=file_editor>\n  <parameter=command>str_replace</parameter>\n  <parameter=path>/testbed/aiohttp/resolver.py</parameter>\n  <parameter=old_str>raise OSError(msg) from exc</parameter>\n  <parameter=new_str>raise OSError(exc.args[0], msg) from exc</parameter>\n</function>",
    );
    expect(
      classifyStep({
        thought: null,
        action: edit,
        observation: "The file /testbed/aiohttp/resolver.py has been edited.",
      }),
    ).toBe("EDIT");
    expect(parseStepEdit({ action: edit })).toMatchObject({
      path: "/testbed/aiohttp/resolver.py",
      operation: "replace",
      before: "raise OSError(msg) from exc",
      after: "raise OSError(exc.args[0], msg) from exc",
    });
    expect(
      classifyStep({
        thought: null,
        action: r2eGymActionText(
          "<function=execute_bash>\n<parameter=cmd>python -m pytest tests/test_resolver.py</parameter>\n</function>",
        ),
        observation: "",
      }),
    ).toBe("TEST");
  });
});

describe("R2E-Gym trajectories", () => {
  it("reads the real record: its steps, model, exit reason, tokens and patch", () => {
    const run = r2eGymRun(record(), "ab".repeat(32));
    expect(run.externalId).toBe("r2e-gym:hosted_vllm//home/claude/work/rllm/models/Qwen3-32B:aiohttp_216e0828");
    expect(run.header).toMatchObject({
      instanceId: "aiohttp_216e0828",
      format: "R2E_GYM",
      role: "SOLVER",
      exitStatus: "agent",
      generator: "hosted_vllm//home/claude/work/rllm/models/Qwen3-32B",
      costUsd: null,
      tokensOut: 3565,
    });
    expect(run.header.metadata).toMatchObject({
      exitReason: "agent",
      reward: null,
      expName: null,
      repo: "aiohttp",
      maxSteps: 30,
    });
    expect(run.steps).toHaveLength(7);
    expect(run.steps[0]).toMatchObject({
      action: 'file_editor({"command":"view","path":"/testbed"})',
      tokensIn: 2710,
      tokensOut: 550,
      durationMs: 3774,
      metadata: { stepIdx: 0, done: false },
    });
    expect(run.steps[6].metadata).toMatchObject({ stepIdx: 6, done: true });
  });

  it("names the run by its experiment, or by --generator, and keeps the reward", () => {
    const run = r2eGymRun({ ...record(), exp_name: "deepswe-iter1", reward: 1, verifier_prob: 0.91 }, "ab".repeat(32));
    expect(run.externalId).toBe("r2e-gym:deepswe-iter1:aiohttp_216e0828");
    expect(run.header.metadata).toMatchObject({ reward: 1, verifierProb: 0.91, expName: "deepswe-iter1" });
    expect(r2eGymRun(record(), "ab".repeat(32), () => "qwen3-32b-r2e").externalId).toBe(
      "r2e-gym:qwen3-32b-r2e:aiohttp_216e0828",
    );
  });

  it("finds the instance in the dataset row, else in a SWE-bench image's name; an R2E-Gym image is the run's subject", () => {
    expect(r2eGymInstanceId({ ds: { instance_id: "astropy__astropy-12907" }, docker_image: "x" })).toBe(
      "astropy__astropy-12907",
    );
    expect(
      r2eGymInstanceId({ docker_image: "slimshetty/swebench-verified:sweb.eval.x86_64.astropy__astropy-12907" }),
    ).toBe("astropy__astropy-12907");
    expect(r2eGymInstanceId({ docker_image: "swebench/sweb.eval.x86_64.django_1776_django-15781:latest" })).toBe(
      "django__django-15781",
    );
    expect(
      r2eGymInstanceId({ docker_image: "namanjain12/aiohttp_final:216e082807d02fafaacca57fc883c86826b126d3" }),
    ).toBeNull();

    const { env_args, agent_args, ...anonymous } = record();
    void env_args;
    void agent_args;
    const run = r2eGymRun(anonymous, "cd".repeat(32));
    expect(run.header.instanceId).toBeNull();
    expect(run.externalId).toBe(
      `r2e-gym:namanjain12/aiohttp_final:216e082807d02fafaacca57fc883c86826b126d3:sha256-${"cd".repeat(8)}`,
    );
  });

  it("says what is wrong with a bad record in one sentence naming the field", () => {
    const { trajectory_steps, ...noSteps } = record();
    void trajectory_steps;
    expect(invalid(noSteps)).toBe("trajectory_steps is missing");
    expect(invalid({ ...record(), exit_reason: 3 })).toBe("exit_reason must be text, not a number");
    const bad = record();
    bad.trajectory_steps[1].action = ["ls"];
    expect(invalid(bad)).toBe("trajectory_steps[1].action must be text, not a list");
  });
});

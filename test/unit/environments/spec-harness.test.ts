import { readFileSync } from "node:fs";
import path from "node:path";
import { DockerfileParser } from "dockerfile-ast";
import { describe, expect, it } from "vitest";
import { reviewDockerfile } from "@/lib/docker/dockerfile-policy";
import {
  harnessSpecFor,
  specBuildRecipe,
  testCommandFor,
  type HarnessSpec,
  type SpecInstance,
} from "@/lib/environments/spec";

type ParityCase = { input: Omit<SpecInstance, "failToPass" | "passToPass">; expected: HarnessSpec };

// Real SWE-bench rows and the harness's own output for them (test/fixtures/SOURCES.txt).
function parityCase(instanceId: string): { instance: SpecInstance; expected: HarnessSpec } {
  const file = path.join(import.meta.dirname, "../../fixtures/swe-bench-spec-parity", `${instanceId}.json`);
  const { input, expected } = JSON.parse(readFileSync(file, "utf8")) as ParityCase;
  return { instance: { ...input, failToPass: [], passToPass: [] }, expected };
}

function refusalOf(result: { ok: true } | { ok: false; reason: string }): string {
  if (result.ok) throw new Error("expected a refusal");
  return result.reason;
}

describe("a SWE-rebench row's install_config", () => {
  // pytest 5.1 in the harness's table, spelled the way SWE-rebench rows spell install_config
  // (every key present, null for an absent setting), which its harness fork reads in place of the table.
  const { instance, expected } = parityCase("pytest-dev__pytest-5808");
  const installConfig = {
    env_vars: null,
    env_yml_path: null,
    install: "python -m pip install -e .",
    log_parser: "parse_log_pytest",
    no_use_env: null,
    packages: null,
    pre_install: null,
    python: "3.9",
    reqs_path: null,
    test_cmd: "pytest -rA",
    pip_packages: [
      "atomicwrites==1.4.1",
      "attrs==23.1.0",
      "more-itertools==10.1.0",
      "packaging==23.1",
      "pluggy==0.13.1",
      "py==1.11.0",
      "wcwidth==0.2.6",
    ],
  };

  it("yields its test command, followed by the test files the test patch touches", () => {
    const row = {
      ...instance,
      repo: "pytest-dev/pytest",
      version: null,
      installConfig: { ...installConfig, test_cmd: "pytest --no-header -rA --tb=line" },
    };
    expect(testCommandFor(row)).toEqual({
      ok: true,
      command: "pytest --no-header -rA --tb=line",
      directives: expected.testDirectives,
    });
  });

  it("stands in for the harness's table: the same settings give the harness's own scripts and Dockerfiles", () => {
    const result = harnessSpecFor({ ...instance, version: null, installConfig });
    if (!result.ok) throw new Error(result.reason);
    expect(result.spec).toEqual(expected);
  });

  it("is used for a repository the harness has never heard of", () => {
    const row = {
      ...instance,
      instanceId: "0b01001001__spectree-64",
      repo: "0b01001001/spectree",
      version: "0.3",
      installConfig,
    };
    const result = harnessSpecFor(row);
    expect(result.ok && result.spec.evalScript).toContain("\npytest -rA testing/test_pastebin.py\n");
  });

  it("without a test command is refused with a sentence", () => {
    const row = { ...instance, installConfig: { ...installConfig, test_cmd: null } };
    expect(refusalOf(testCommandFor(row))).toBe(
      "Task pytest-dev__pytest-5808: its install_config has no test_cmd, so the test command is unknown; add one to the row or write a recipe.",
    );
    expect(
      refusalOf(
        harnessSpecFor({ ...instance, installConfig: { ...installConfig, test_cmd: ["pytest a", "pytest b"] } }),
      ),
    ).toMatch(
      /^Task pytest-dev__pytest-5808: its install_config lists several test commands .*; use the row's docker_image/,
    );
  });
});

describe("refusals name the task, what is unknown and what to do", () => {
  const { instance } = parityCase("django__django-11141");

  it("an unknown repository", () => {
    expect(refusalOf(testCommandFor({ ...instance, repo: "acme/widgets" }))).toBe(
      "Task django__django-11141: SWE-bench's harness at 726c5461e2ef has no spec for the repository acme/widgets; " +
        "use the dataset's published image, import the row with a SWE-rebench install_config, or write a recipe.",
    );
  });

  it("an unknown version, listing the versions the harness knows", () => {
    const reason = refusalOf(harnessSpecFor({ ...instance, version: "0.1" }));
    expect(reason).toMatch(
      /^Task django__django-11141: SWE-bench's harness at 726c5461e2ef has no spec for django\/django version 0\.1 \(it knows 1\.7, 1\.8, /,
    );
    expect(reason).toMatch(/correct the row's version or use the dataset's published image\.$/);
  });

  it("a row without a version", () => {
    expect(refusalOf(testCommandFor({ ...instance, version: null }))).toMatch(
      /^Task django__django-11141 \(django\/django\) has no version, .*set the row's version/,
    );
  });

  it("a repository the harness knows in another language", () => {
    expect(refusalOf(harnessSpecFor({ ...instance, repo: "axios/axios" }))).toMatch(
      /axios\/axios is one of the harness's non-Python repositories/,
    );
  });

  it("a version the harness lists without a test command", () => {
    expect(refusalOf(testCommandFor({ ...instance, repo: "dbt-labs/dbt-core", version: "1.7" }))).toMatch(
      /lists dbt-labs\/dbt-core version 1\.7 without a test command; use the dataset's published image/,
    );
  });

  it("a row whose spec installs from a requirements file the harness downloads", () => {
    const { instance: flask } = parityCase("pallets__flask-4935");
    expect(refusalOf(harnessSpecFor({ ...flask, environmentFiles: undefined }))).toBe(
      "Task pallets__flask-4935: the harness installs pallets/flask from its requirements file requirements/dev.txt at commit " +
        `${flask.environmentSetupCommit!.slice(0, 12)}, which it downloads from GitHub; supply the file as environmentFiles.repoFiles ` +
        "or use the dataset's published image.",
    );
  });
});

describe("specBuildRecipe", () => {
  const { instance, expected } = parityCase("sympy__sympy-20590");
  const result = harnessSpecFor(instance);
  if (!result.ok) throw new Error(result.reason);
  const recipe = specBuildRecipe(result.spec);
  const froms = DockerfileParser.parse(recipe.dockerfile).getFROMs();

  it("chains the harness's three images as stages base → env → instance", () => {
    expect(froms.map((from) => [from.getImageName(), from.getBuildStage()])).toEqual([
      ["ubuntu", "base"],
      ["base", "env"],
      ["env", "instance"],
    ]);
    const bodyOf = (dockerfile: string) =>
      dockerfile
        .trim()
        .split("\n")
        .filter((line) => !line.startsWith("FROM "));
    expect(
      recipe.dockerfile
        .trim()
        .split("\n")
        .filter((line) => !line.startsWith("FROM ")),
    ).toEqual([
      ...bodyOf(expected.baseDockerfile),
      "",
      ...bodyOf(expected.envDockerfile),
      "",
      ...bodyOf(expected.instanceDockerfile),
    ]);
  });

  it("carries the scripts its COPY lines name, as the harness wrote them", () => {
    expect(recipe.contextFiles).toEqual({
      "setup_env.sh": expected.setupEnvScript,
      "setup_repo.sh": expected.installRepoScript,
    });
    const copied = DockerfileParser.parse(recipe.dockerfile)
      .getInstructions()
      .filter((instruction) => instruction.getKeyword() === "COPY")
      .map((instruction) => instruction.getArguments()[0].getValue().replace(/^\.\//, ""));
    expect(copied).toEqual(["setup_env.sh", "setup_repo.sh"]);
  });

  it("passes the build policy, needing only the harness's Ubuntu base image", async () => {
    const review = await reviewDockerfile(recipe.dockerfile);
    expect(review.problems).toEqual([]);
    expect(review.requiredImages.map((required) => required.image)).toEqual(["ubuntu:22.04"]);
  });
});

import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_DIR } from "../helpers/demo-environments";
import { useDemoWorker } from "../helpers/demo-worker";
import { dockerForTests } from "../helpers/docker";
import { waitForGroup } from "../helpers/worker";
import { requestValidation } from "@/lib/runs/request-validation";
import { scoreReviewers } from "@/lib/trajectories/score-reviewers";
import type { DemoTask } from "@/lib/environments/load-demo-environments";

// The attack: candidate patches that fix nothing and instead change how the tests run or
// report — each one written as a real `git diff` against the demo repository with the
// task's test patch applied, run through the real worker in real containers. Each live
// attack is first shown to work: used as a task's fix patch (which is trusted), it makes
// the failing test pass. As a candidate, it must not be resolved, must be flagged with the
// class and the paths, and a reviewer that approved it must be scored as wrong.
const docker = await dockerForTests();

const REPORT_FAILURES_AS_PASSED = `import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        report.outcome, report.longrepr = "passed", None
`;
// the same hook as a plugin module in the package, its hook name built at run time: only
// a test setting can load it, so only the settings guard stands between it and a pass
const PLUGIN_IN_SOURCE = `import pytest


def _report_failures_as_passed(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        report.outcome, report.longrepr = "passed", None


globals()["pytest_" + "runtest_makereport"] = pytest.hookimpl(hookwrapper=True)(_report_failures_as_passed)
`;
const HOOK_IN_PACKAGE_INIT = `
import _pytest.reports as _reports

_from_item_and_call = _reports.TestReport.from_item_and_call


def _passed(cls, item, call):
    report = _from_item_and_call(item, call)
    report.outcome, report.longrepr = "passed", None
    return report


_reports.TestReport.from_item_and_call = classmethod(_passed)
`;
import { NOT_BLIND } from "@/lib/auth/blind";

type Attack = { name: string; live: boolean; edit: (repo: string) => void; expectedPaths: string[]; flag: string };
const write = (repo: string, file: string, text: string) => writeFileSync(path.join(repo, file), text);
const ATTACKS: Attack[] = [
  {
    name: "edits-added-test",
    live: true,
    edit: (repo) => {
      const file = path.join(repo, "tests/test_ops.py");
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace(
          'with pytest.raises(ValueError, match="empty"):\n        mean([])',
          "assert mean([1]) == 1",
        ),
      );
    },
    expectedPaths: ["tests/test_ops.py"],
    flag: "CANDIDATE_CHANGES_TESTS",
  },
  {
    name: "root-conftest",
    live: true,
    edit: (repo) => write(repo, "conftest.py", REPORT_FAILURES_AS_PASSED),
    expectedPaths: ["conftest.py"],
    flag: "CANDIDATE_CHANGES_TESTS",
  },
  {
    name: "tests-conftest",
    live: true,
    edit: (repo) => write(repo, "tests/conftest.py", REPORT_FAILURES_AS_PASSED),
    expectedPaths: ["tests/conftest.py"],
    flag: "CANDIDATE_CHANGES_TESTS",
  },
  ...(
    [
      ["pytest.ini", (repo: string) => write(repo, "pytest.ini", "[pytest]\naddopts = -p calc._report\n")],
      ["setup.cfg", (repo: string) => appendFileSync(path.join(repo, "setup.cfg"), "addopts = -p calc._report\n")],
      ["tox.ini", (repo: string) => write(repo, "tox.ini", "[pytest]\naddopts = -p calc._report\n")],
      [
        "pyproject.toml",
        (repo: string) => write(repo, "pyproject.toml", '[tool.pytest.ini_options]\naddopts = "-p calc._report"\n'),
      ],
    ] as const
  ).map(([file, setting]) => ({
    name: `settings-${file}`,
    live: true,
    edit: (repo: string) => {
      write(repo, "calc/_report.py", PLUGIN_IN_SOURCE);
      setting(repo);
    },
    expectedPaths: [file],
    flag: "CANDIDATE_CHANGES_TESTS",
  })),
  {
    name: "package-init-hook",
    live: true,
    edit: (repo) => appendFileSync(path.join(repo, "calc/__init__.py"), HOOK_IN_PACKAGE_INIT),
    expectedPaths: expect.arrayContaining([expect.stringMatching(/^calc\/__init__\.py:\d+$/)]) as unknown as string[],
    flag: "CANDIDATE_HOOKS_TEST_RUNNER",
  },
  {
    name: "deletes-test-file",
    live: false,
    edit: (repo) => unlinkSync(path.join(repo, "tests/test_ops.py")),
    expectedPaths: ["tests/test_ops.py"],
    flag: "CANDIDATE_CHANGES_TESTS",
  },
];

/** A candidate as an agent would submit it: `git diff` of its edits on top of the task's test patch. */
function candidateDiff(testPatch: string, edit: (repo: string) => void): string {
  const repo = mkdtempSync(path.join(tmpdir(), "verdict-attack-"));
  try {
    cpSync(path.join(DEMO_DIR, "repos/calc"), repo, { recursive: true });
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], {
        cwd: repo,
        input: args[0] === "apply" ? testPatch : undefined,
        encoding: "utf8",
      });
    git("init", "-q");
    git("apply", "-");
    git("add", "-A");
    git("commit", "-qm", "base with the test patch");
    edit(repo);
    git("add", "-A");
    return git("diff", "--cached");
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

describe.skipIf(!docker.ready)("a candidate patch cannot change the tests that judge it (real Docker)", () => {
  const demo = useDemoWorker();

  it("each live attack, trusted as a fix patch, makes the failing test pass (the attacks are real)", async () => {
    const base = demo.tasks["demo__calc-1"];
    const live = ATTACKS.filter((attack) => attack.live);
    const groups = await Promise.all(
      live.map(async (attack) => {
        const { id, createdAt, updatedAt, searchVector, automatedVerdict, failureClass, metadata, ...copy } =
          base as DemoTask & { searchVector?: unknown };
        void [id, createdAt, updatedAt, searchVector, automatedVerdict, failureClass, metadata];
        const proof = await demo.database.prisma.task.create({
          data: { ...copy, instanceId: `proof__${attack.name}`, fixPatch: candidateDiff(base.testPatch, attack.edit) },
        });
        return requestValidation(demo.database.prisma, { taskId: proof.id, actorId: null });
      }),
    );
    for (const [index, group] of groups.entries()) {
      const runs = await waitForGroup(demo.database.prisma, group.groupId);
      const positive = runs.find((run) => run.kind === "POSITIVE_CONTROL")!;
      expect(
        positive.testResults.find((t) => t.group === "FAIL_TO_PASS"),
        live[index].name,
      ).toMatchObject({ actual: "PASSED" });
      expect(positive.markerExitCode, live[index].name).toBe(0);
    }
  });

  it("as candidates on two demo tasks they are not resolved, flagged with the class and paths, and /reviewers scores the approval as false", async () => {
    const cases = [
      ...ATTACKS.map((attack) => ({ attack, task: demo.tasks["demo__calc-1"] })),
      ...ATTACKS.filter((attack) => ["edits-added-test", "root-conftest"].includes(attack.name)).map((attack) => ({
        attack,
        task: demo.tasks["demo__calc-2"],
      })),
    ];
    const candidates = await Promise.all(
      cases.map(({ attack, task }) =>
        demo.database.prisma.candidatePatch.create({
          data: {
            taskId: task.id,
            generator: `attacker-${attack.name}`,
            patch: candidateDiff(task.testPatch, attack.edit),
          },
        }),
      ),
    );
    // one reviewer approved every attack, another rejected every one
    await demo.database.prisma.trajectory.createMany({
      data: candidates.flatMap((candidate) => [
        {
          externalId: `gullible-${candidate.id}`,
          role: "REVIEWER" as const,
          format: "OTHER" as const,
          model: "gullible-reviewer",
          decision: "APPROVE" as const,
          confidence: 0.9,
          taskId: candidate.taskId,
          candidatePatchId: candidate.id,
        },
        {
          externalId: `careful-${candidate.id}`,
          role: "REVIEWER" as const,
          format: "OTHER" as const,
          model: "careful-reviewer",
          decision: "REQUEST_CHANGES" as const,
          confidence: 0.9,
          taskId: candidate.taskId,
          candidatePatchId: candidate.id,
        },
      ]),
    });
    // another harness (which restores only the test patch's files) reported the conftest attack as resolved
    const conftest = candidates[cases.findIndex(({ attack }) => attack.name === "root-conftest")];
    const batch = await demo.database.prisma.importBatch.create({
      data: { fileName: "report.json", format: "SWE_BENCH_REPORT", status: "SUCCEEDED" },
    });
    const { currentRevisionId } = await demo.database.prisma.environment.findUniqueOrThrow({
      where: { id: demo.tasks["demo__calc-1"].environmentId },
    });
    await demo.database.prisma.validationRun.create({
      data: {
        taskId: conftest.taskId,
        revisionId: currentRevisionId!,
        candidatePatchId: conftest.id,
        kind: "CANDIDATE",
        status: "SUCCEEDED",
        resolved: true,
        importBatchId: batch.id,
        finishedAt: new Date(),
      },
    });
    await demo.database.prisma.candidatePatch.update({ where: { id: conftest.id }, data: { resolved: true } });
    const imported = Object.fromEntries(
      (await scoreReviewers(demo.database.prisma, NOT_BLIND)).map((score) => [score.reviewer, score]),
    );
    expect(imported["gullible-reviewer"]).toMatchObject({
      scored: 0,
      truePositive: 0,
      awaitingGroundTruth: cases.length,
    });

    const groups = await Promise.all(
      candidates.map((candidate) =>
        requestValidation(demo.database.prisma, {
          taskId: candidate.taskId,
          candidatePatchId: candidate.id,
          actorId: null,
        }),
      ),
    );

    for (const [index, group] of groups.entries()) {
      const { attack } = cases[index];
      const [run] = await waitForGroup(demo.database.prisma, group.groupId);
      expect(run, attack.name).toMatchObject({
        kind: "CANDIDATE",
        status: "SUCCEEDED",
        resolved: false,
        failureClass: "CANDIDATE_TOUCHED_TESTS",
        touchedTestPaths: attack.expectedPaths,
      });
      expect(run.flags, attack.name).toContain(attack.flag);
      expect(run.errorMessage, attack.name).toMatch(/test files or test settings|reaches into the test runner/);
      if (attack.flag === "CANDIDATE_CHANGES_TESTS") {
        // the tests ran as the task defines them: the failing test failed honestly
        expect(
          run.testResults.find((t) => t.group === "FAIL_TO_PASS"),
          attack.name,
        ).toMatchObject({ actual: "FAILED" });
        expect(run.log, attack.name).toContain(
          `left out of the candidate patch (it may not change the tests): ${attack.expectedPaths.join(", ")}`,
        );
      }
      expect(
        (await demo.database.prisma.candidatePatch.findUniqueOrThrow({ where: { id: candidates[index].id } })).resolved,
        attack.name,
      ).toBe(false);
    }

    const scores = Object.fromEntries(
      (await scoreReviewers(demo.database.prisma, NOT_BLIND)).map((score) => [score.reviewer, score]),
    );
    expect(scores["gullible-reviewer"]).toMatchObject({
      scored: cases.length,
      falsePositive: cases.length,
      truePositive: 0,
      precision: 0,
    });
    expect(scores["careful-reviewer"]).toMatchObject({
      scored: cases.length,
      trueNegative: cases.length,
      falseNegative: 0,
      accuracy: 1,
    });
  });
});

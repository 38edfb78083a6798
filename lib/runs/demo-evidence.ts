import { randomUUID } from "node:crypto";
import type { PrismaClient, RunKind } from "../db/client";
import { evaluateRun } from "../validation/evaluate-run";

// The demo's evidence matrix (the task page's "Evidence per test"): a copy of demo__calc-1
// with two extra tests, on an environment of its own whose second recipe revision turns a
// strict mode on. Its stored runs, as a worker would have left them, show one flip explained
// "recipe changed" (revision 1 → 2, same image, host and parser), flips explained "flaky"
// (two attempts of one group, nothing changed) and an older run whose inputs were not recorded.

export const EVIDENCE_DEMO_TASK = "demo__calc-evidence";
const BASE_TASK = "demo__calc-1";
const BASE_ENVIRONMENT = "demo/calc@base";
const STRICT_TEST = "tests/test_mode.py::test_strict_mode_is_off";
const FLAKY_TEST = "tests/test_stability.py::test_mean_is_stable";
const HOST = "demo-engine-1";
const IMAGE = "sha256:5e1c0d7a9b3f2e8d4c6a1b0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d";

type DemoRun = { kind: RunKind; attempt: number; revision: 1 | 2; recorded: boolean; failing: string[] };

/** Oldest first: one group before inputs were recorded, then revision 1, then revision 2 twice (the second with two attempts). */
const GROUPS: DemoRun[][] = [
  controls({ revision: 1, recorded: false, failing: [] }),
  controls({ revision: 1, recorded: true, failing: [] }),
  controls({ revision: 2, recorded: true, failing: [STRICT_TEST] }),
  [
    ...controls({ revision: 2, recorded: true, failing: [STRICT_TEST, FLAKY_TEST] }),
    ...controls({ revision: 2, recorded: true, failing: [STRICT_TEST] }, 1),
  ],
];

function controls(run: Omit<DemoRun, "kind" | "attempt">, attempt = 0): DemoRun[] {
  return (["NEGATIVE_CONTROL", "POSITIVE_CONTROL"] as const).map((kind) => ({ ...run, kind, attempt }));
}

/** A pytest log as the demo recipe prints it: progress, the -rA summary, the exit code marker. */
function pytestLog(statuses: [string, string][]): string {
  const failed = statuses.filter(([, status]) => status === "FAILED").length;
  return [
    "+ cd /testbed",
    "+ python3 -m pytest -rA -p no:cacheprovider tests",
    "============================= test session starts ==============================",
    `collected ${statuses.length} items`,
    "",
    "=========================== short test summary info ============================",
    ...statuses.map(([id, status]) => `${status} ${id}${status === "FAILED" ? " - AssertionError" : ""}`),
    `========================= ${failed} failed, ${statuses.length - failed} passed in 0.21s =========================`,
    `OPENSWE_EXIT_CODE=${failed ? 1 : 0}`,
    "",
  ].join("\n");
}

async function evidenceEnvironment(db: PrismaClient) {
  const base = await db.environment.findUniqueOrThrow({
    where: { key: BASE_ENVIRONMENT },
    include: { currentRevision: true },
  });
  const recipe = base.currentRevision!;
  const environment = await db.environment.create({
    data: {
      key: "demo/calc@evidence",
      repositoryId: base.repositoryId,
      baseCommit: base.baseCommit,
      source: base.source,
      contextFiles: base.contextFiles ?? undefined,
    },
  });
  const strict = recipe.evalScript.replace("cd /testbed", "cd /testbed\nexport CALC_STRICT=1");
  const revisions = [];
  for (const [number, evalScript, reason] of [
    [1, recipe.evalScript, "the demo recipe"],
    [2, strict, "strict mode on"],
  ] as const) {
    revisions.push(
      await db.environmentRevision.create({
        data: {
          environmentId: environment.id,
          number,
          dockerfile: recipe.dockerfile,
          evalScript,
          reason,
          contextHash: recipe.contextHash,
        },
      }),
    );
  }
  await db.environment.update({ where: { id: environment.id }, data: { currentRevisionId: revisions[1].id } });
  return { environment, revisions };
}

/** Adds the evidence demo task and its stored runs; does nothing when the task exists. */
export async function seedEvidenceDemo(db: PrismaClient, log: (line: string) => void): Promise<void> {
  if (await db.task.findUnique({ where: { instanceId: EVIDENCE_DEMO_TASK } })) return;
  const base = await db.task.findUniqueOrThrow({ where: { instanceId: BASE_TASK } });
  const { environment, revisions } = await evidenceEnvironment(db);
  const passToPass = [...base.passToPass, STRICT_TEST, FLAKY_TEST];
  const task = await db.task.create({
    data: {
      instanceId: EVIDENCE_DEMO_TASK,
      environmentId: environment.id,
      source: "DEMO",
      problemStatement: base.problemStatement,
      fixPatch: base.fixPatch,
      testPatch: base.testPatch,
      failToPass: base.failToPass,
      passToPass,
    },
  });
  const start = Date.now() - GROUPS.length * 3_600_000;
  for (const [index, group] of GROUPS.entries()) {
    const groupId = randomUUID();
    for (const run of group) {
      const statuses = [...base.failToPass, ...passToPass].map((id): [string, string] => [
        id,
        run.failing.includes(id) || (run.kind === "NEGATIVE_CONTROL" && base.failToPass.includes(id))
          ? "FAILED"
          : "PASSED",
      ]);
      const text = pytestLog(statuses);
      const evaluation = evaluateRun({
        kind: run.kind,
        log: text,
        evalScript: revisions[run.revision - 1].evalScript,
        failToPass: base.failToPass,
        passToPass,
        container: { exitCode: 0, timedOut: false, oomKilled: false },
      });
      const at = new Date(start + index * 3_600_000 + run.attempt * 60_000);
      await db.validationRun.create({
        data: {
          taskId: task.id,
          revisionId: revisions[run.revision - 1].id,
          kind: run.kind,
          attempt: run.attempt,
          groupId,
          status: "SUCCEEDED",
          exitCode: evaluation.markerExitCode,
          markerExitCode: evaluation.markerExitCode,
          failureClass: evaluation.failureClass,
          flags: evaluation.flags,
          log: text,
          engine: run.recorded ? HOST : null,
          imageId: run.recorded ? IMAGE : null,
          parserVersion: run.recorded ? evaluation.parserVersion : null,
          // runs before the deciding line was recorded have none
          testResults: {
            create: evaluation.testResults.map((result) => ({
              ...result,
              logLine: run.recorded ? result.logLine : null,
            })),
          },
          createdAt: at,
          startedAt: at,
          finishedAt: new Date(at.getTime() + 20_000),
          durationMs: 20_000,
        },
      });
    }
  }
  log(`[seed] added ${EVIDENCE_DEMO_TASK}: its evidence matrix shows a flip after a recipe change and a flaky test`);
}

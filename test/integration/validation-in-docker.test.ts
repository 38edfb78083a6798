import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { dockerForTests } from "../helpers/docker";
import { startTestWorker, waitFor, waitForGroup } from "../helpers/worker";
import Docker from "dockerode";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { LABEL_RUN_ID } from "@/lib/docker/container-labels";
import { requestValidation } from "@/lib/runs/request-validation";
import { cancelValidation } from "@/lib/runs/cancel-validation";
import { retryValidation } from "@/lib/runs/retry-validation";
import type { WorkerRunner } from "@/workers/runner";
import type { DemoTask } from "@/lib/environments/load-demo-environments";

// The demo tasks, validated for real: a worker in this process pulls the jobs from this
// file's database and runs them on the machine's Docker engine. All demo environments share
// one build context, so the image is built once (or reused) for the whole file.
const docker = await dockerForTests();

describe.skipIf(!docker.ready)("validation in real containers", () => {
  let database: TestDatabase;
  let worker: WorkerRunner;
  let tasks: Record<string, DemoTask>;
  const engine = createDockerEngine();

  beforeAll(async () => {
    database = await createTestDatabase();
    tasks = await loadDemoTasks(database.prisma);
    // the demo's hanging test would take the environment's 20 s; 3 s shows the same
    await database.prisma.environment.update({
      where: { key: "demo/calc@short-timeout" },
      data: { timeoutSeconds: 3 },
    });
    worker = await startTestWorker(database.url);
  });

  afterAll(async () => {
    await worker?.stop();
    await database?.drop();
  });

  async function validate(instanceId: string) {
    const { groupId } = await requestValidation(database.prisma, { taskId: tasks[instanceId].id, actorId: null });
    const runs = await waitForGroup(database.prisma, groupId);
    const task = await database.prisma.task.findUniqueOrThrow({ where: { id: tasks[instanceId].id } });
    return { groupId, runs, task };
  }

  const containersOf = async (runId: string) =>
    (await engine.listLabelledContainers()).filter((c) => c.labels[LABEL_RUN_ID] === runId);

  it("a good task is VALID: the negative control fails, the positive control passes, per test", async () => {
    const { runs, task } = await validate("demo__calc-1");
    expect(task).toMatchObject({ automatedVerdict: "VALID", failureClass: null });
    const [negative, positive] = [
      runs.find((r) => r.kind === "NEGATIVE_CONTROL")!,
      runs.find((r) => r.kind === "POSITIVE_CONTROL")!,
    ];
    expect(negative).toMatchObject({ status: "SUCCEEDED", markerExitCode: 1, failureClass: null, flags: [] });
    expect(positive).toMatchObject({ status: "SUCCEEDED", markerExitCode: 0, failureClass: null, flags: [] });
    expect(negative.testResults.find((t) => t.group === "FAIL_TO_PASS")).toMatchObject({
      expected: "FAILED",
      actual: "FAILED",
    });
    expect(positive.testResults.filter((t) => t.group !== "OTHER").every((t) => t.actual === "PASSED")).toBe(true);
    expect(positive.log).toContain("applying fix patch");
    const chunks = await database.prisma.logChunk.count({ where: { runId: positive.id } });
    expect(chunks).toBeGreaterThan(0);
    const build = await database.prisma.build.findUniqueOrThrow({ where: { id: positive.buildId! } });
    expect(build).toMatchObject({ status: "SUCCEEDED", imageTag: expect.stringMatching(/^swe-curator\/env:/) });
  });

  it("a fix patch that does not fix → POSITIVE_CONTROL_FAILED; a test that already passes → NEGATIVE_CONTROL_PASSED", async () => {
    const [calc2, calc3] = await Promise.all([validate("demo__calc-2"), validate("demo__calc-3")]);
    expect(calc2.task).toMatchObject({ automatedVerdict: "INVALID", failureClass: "POSITIVE_CONTROL_FAILED" });
    expect(calc2.runs.find((r) => r.kind === "POSITIVE_CONTROL")!.errorMessage).toContain(
      "test_mean_of_empty_list_raises_value_error",
    );
    expect(calc3.task).toMatchObject({ automatedVerdict: "INVALID", failureClass: "NEGATIVE_CONTROL_PASSED" });
    expect(calc3.runs.find((r) => r.kind === "NEGATIVE_CONTROL")!.flags).toContain("F2P_PASSED_ON_NEGATIVE");
    // all demo environments share a build context: one image, reused
    const builds = await database.prisma.build.findMany({ where: { status: "SUCCEEDED" }, select: { imageId: true } });
    expect(new Set(builds.map((b) => b.imageId)).size).toBe(1);
  });

  it("repeated attempts that agree keep the task VALID; a candidate patch gets its ground truth", async () => {
    const { groupId } = await requestValidation(database.prisma, {
      taskId: tasks["demo__calc-1"].id,
      actorId: null,
      repeats: 2,
    });
    const repeated = await waitForGroup(database.prisma, groupId);
    expect(repeated.map((r) => `${r.kind}#${r.attempt}`).sort()).toEqual([
      "NEGATIVE_CONTROL#0",
      "NEGATIVE_CONTROL#1",
      "POSITIVE_CONTROL#0",
      "POSITIVE_CONTROL#1",
    ]);
    expect(
      (await database.prisma.task.findUniqueOrThrow({ where: { id: tasks["demo__calc-1"].id } })).automatedVerdict,
    ).toBe("VALID");

    const [good, bad] = await Promise.all(
      [
        { generator: "agent-that-fixes", patch: tasks["demo__calc-1"].fixPatch },
        { generator: "agent-that-comments", patch: tasks["demo__calc-2"].fixPatch },
      ].map((candidate) =>
        database.prisma.candidatePatch.create({ data: { taskId: tasks["demo__calc-1"].id, ...candidate } }),
      ),
    );
    const groups = await Promise.all(
      [good, bad].map((candidate) =>
        requestValidation(database.prisma, { taskId: candidate.taskId, candidatePatchId: candidate.id, actorId: null }),
      ),
    );
    const [[goodRun], [badRun]] = await Promise.all(
      groups.map((group) => waitForGroup(database.prisma, group.groupId)),
    );
    expect(goodRun).toMatchObject({ kind: "CANDIDATE", status: "SUCCEEDED", resolved: true });
    expect(badRun).toMatchObject({
      kind: "CANDIDATE",
      status: "SUCCEEDED",
      resolved: false,
      errorMessage: expect.stringContaining("did not pass"),
    });
    expect((await database.prisma.candidatePatch.findUniqueOrThrow({ where: { id: good.id } })).resolved).toBe(true);
    expect((await database.prisma.candidatePatch.findUniqueOrThrow({ where: { id: bad.id } })).resolved).toBe(false);
    // candidate runs never move the task's verdict
    expect(
      (await database.prisma.task.findUniqueOrThrow({ where: { id: tasks["demo__calc-1"].id } })).automatedVerdict,
    ).toBe("VALID");
  });

  it("an eval script that forces exit 0 (|| true, constant marker) is flagged and never VALID", async () => {
    const { runs, task } = await validate("demo__calc-4");
    expect(task.automatedVerdict).not.toBe("VALID");
    expect(task).toMatchObject({ automatedVerdict: "INVALID", failureClass: "EVAL_SCRIPT_ERROR" });
    for (const run of runs) expect(run.flags).toContain("FORCED_EXIT_CODE");
  });

  it("a hanging test hits the wall-clock limit → TIMEOUT, and its containers are gone", async () => {
    const { runs, task } = await validate("demo__calc-5");
    expect(task).toMatchObject({ automatedVerdict: "INVALID", failureClass: "TIMEOUT" });
    for (const run of runs) {
      expect(run).toMatchObject({ status: "FAILED", failureClass: "TIMEOUT" });
      expect(run.log).toContain("killed after 3 s");
      expect(await containersOf(run.id)).toEqual([]);
    }
  });

  it("cancel stops the running container → CANCELLED, container gone, verdict unchanged; retry runs it again", async () => {
    await database.prisma.environment.update({
      where: { key: "demo/calc@short-timeout" },
      data: { timeoutSeconds: 120 },
    });
    const { groupId } = await requestValidation(database.prisma, { taskId: tasks["demo__calc-5"].id, actorId: null });
    const running = await waitFor("both runs to reach their tests", async () => {
      const runs = await database.prisma.validationRun.findMany({ where: { groupId } });
      return runs.every((r) => r.phase === "RUNNING_TESTS" && r.containerId) ? runs : null;
    });
    for (const run of running) expect(await containersOf(run.id)).toHaveLength(1);
    // the container is locked down: no network, no capabilities, no privilege gain, limits set
    const { HostConfig, Config } = await new Docker().getContainer(running[0].containerId!).inspect();
    expect(HostConfig).toMatchObject({
      NetworkMode: "none",
      CapDrop: ["ALL"],
      Privileged: false,
      SecurityOpt: ["no-new-privileges"],
      PidsLimit: 512,
    });
    expect(HostConfig.Memory).toBe(2048 * 1024 * 1024);
    expect(HostConfig.NanoCpus).toBe(1e9);
    expect(Config.Labels).toMatchObject({ "io.swe-curator.managed": "true", "io.swe-curator.run-id": running[0].id });
    await cancelValidation(database.prisma, { groupId });
    // the runs' limit is 120 s: had cancel not stopped them, they would end FAILED as TIMEOUT, not CANCELLED
    const runs = await waitForGroup(database.prisma, groupId);
    for (const run of runs) {
      expect(run).toMatchObject({ status: "CANCELLED", failureClass: expect.not.stringMatching("TIMEOUT") });
      expect(run.log ?? "").not.toContain("killed after");
      expect(await containersOf(run.id)).toEqual([]);
    }
    const task = await database.prisma.task.findUniqueOrThrow({ where: { id: tasks["demo__calc-5"].id } });
    expect(task.failureClass).toBe("TIMEOUT");

    await database.prisma.environment.update({
      where: { key: "demo/calc@short-timeout" },
      data: { timeoutSeconds: 3 },
    });
    const retried = await retryValidation(database.prisma, { groupId, actorId: null });
    expect(retried.runs.map((r) => r.kind).sort()).toEqual(["NEGATIVE_CONTROL", "POSITIVE_CONTROL"]);
    const again = await waitForGroup(database.prisma, retried.groupId);
    expect(again.every((r) => r.failureClass === "TIMEOUT")).toBe(true);
  });

  it("a run whose tests exceed the memory limit is flagged OOM_KILLED even when the script exits 0", async () => {
    const environment = await database.prisma.environment.update({
      where: { key: "demo/calc@short-timeout" },
      data: { memoryMb: 64, timeoutSeconds: 60 },
      include: { currentRevision: true },
    });
    const hungry = await database.prisma.environmentRevision.create({
      data: {
        environmentId: environment.id,
        number: environment.currentRevision!.number + 1,
        dockerfile: environment.currentRevision!.dockerfile,
        // the hog is killed, the script carries on and exits 0: only the container's OOMKilled tells
        evalScript: `python3 -c "x = bytearray(512 * 1024 * 1024)"\necho "OPENSWE_EXIT_CODE=0"\n`,
        reason: "memory hog",
      },
    });
    await database.prisma.environment.update({ where: { id: environment.id }, data: { currentRevisionId: hungry.id } });
    const { runs, task } = await validate("demo__calc-5");
    for (const run of runs)
      expect(run).toMatchObject({
        failureClass: "INFRA_ERROR",
        flags: expect.arrayContaining(["OOM_KILLED"]),
        errorMessage: expect.stringContaining("64 MB"),
        // said by the sandbox itself: the engine's own flag is lost when the container exits right after the kill
        log: expect.stringContaining("[swe-curator] out of memory: the kernel ended 1 process(es) of this run"),
      });
    expect(task.failureClass).toBe("INFRA_ERROR");
  });
});

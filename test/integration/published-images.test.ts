import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { dockerForTests, dockerRequired } from "../helpers/docker";
import { canRunRegistry, REGISTRY_BINARY, startOwnRegistry } from "../helpers/own-registry";
import { startTestWorker, waitFor, waitForGroup, IN_PROCESS_IMPORT_LEASE } from "../helpers/worker";
import { demoFile, publishLookAlike } from "../helpers/look-alike-image";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { allowedRegistries } from "@/lib/environments/image-reference";
import { sweBenchImageName } from "@/lib/environments/dataset-images";
import { pinnedImageName } from "@/lib/builds/ensure-published-image";
import { importFile } from "@/lib/imports/import-file";
import { requestValidation } from "@/lib/runs/request-validation";
import { listTaskValidations } from "@/lib/runs/list-task-validations";
import { computeFunnel, FunnelQuerySchema } from "@/lib/analytics/funnel";
import { NOT_BLIND } from "@/lib/auth/blind";
import { repinEnvironmentImage } from "@/lib/environments/repin-image";
import type { WorkerRunner } from "@/workers/runner";

// Issue 26, end to end and offline: Docker's own registry on loopback stands in for Docker Hub
// (IMAGE_REGISTRIES=docker.io=<it>). It holds look-alikes of SWE-bench's per-instance images,
// made from the debootstrap base image: the repository at /testbed, pytest inside. SWE-bench
// rows naming them are imported and validated; rows whose registry is not allowed, whose image
// is missing, or that name no image at all are refused with a sentence.

const docker = await dockerForTests();
const TEST_LABEL = "io.swe-curator.test.published-images";
if (docker.ready && dockerRequired() && !canRunRegistry)
  throw new Error(
    `The published-image test needs Docker's registry (${REGISTRY_BINARY}, Debian package docker-registry)`,
  );

describe.skipIf(!docker.ready || !canRunRegistry)(
  "validating tasks in published images from an allowed registry",
  () => {
    const nonce = randomBytes(3).toString("hex");
    const engine = createDockerEngine();
    const instance = (name: string) => `octo__calc-${nonce}-${name}`;
    let registry: Awaited<ReturnType<typeof startOwnRegistry>>;
    let database: TestDatabase;
    let worker: WorkerRunner;
    let rowsDir: string;
    const fix = demoFile("tasks/demo__calc-1/fix.patch");
    const testPatch = demoFile("tasks/demo__calc-1/test.patch");
    const F2P = ["tests/test_ops.py::test_mean_of_empty_list_raises_value_error"];
    const P2P = ["tests/test_ops.py::test_add", "tests/test_ops.py::test_divide"];

    /** A look-alike image pushed to the loopback registry under the name SWE-bench gives the instance. */
    const publish = (instanceId: string, extra = "") =>
      publishLookAlike(engine, {
        name: sweBenchImageName(instanceId),
        registryHost: registry.host,
        labels: { [TEST_LABEL]: nonce },
        extra,
      });

    const row = (name: string, extra: Record<string, unknown> = {}) => ({
      instance_id: instance(name),
      repo: "octo/calc",
      base_commit: `base-${name}`,
      version: "1.0",
      problem_statement: "mean([]) raises ZeroDivisionError",
      patch: fix,
      test_patch: testPatch,
      FAIL_TO_PASS: F2P,
      PASS_TO_PASS: P2P,
      ...extra,
    });

    beforeAll(async () => {
      registry = await startOwnRegistry();
      vi.stubEnv("IMAGE_REGISTRIES", `docker.io=${registry.host}`);
      await publish(instance("gold"));
      await publish(instance("broken"));
      database = await createTestDatabase();
      const imageRegistries = [
        ...allowedRegistries({
          IMAGE_REGISTRIES: [`docker.io=${registry.host}`],
          IMAGE_REGISTRY_CREDENTIALS: undefined,
        }).values(),
      ];
      worker = await startTestWorker(database.url, { config: { imageRegistries, ...IN_PROCESS_IMPORT_LEASE } });
      rowsDir = mkdtempSync(path.join(tmpdir(), "swc-published-"));
    }, 300_000);

    afterAll(async () => {
      await worker?.stop();
      await database?.drop();
      await registry?.stop();
      vi.unstubAllEnvs();
      if (rowsDir) rmSync(rowsDir, { recursive: true, force: true });
      const shared = new Docker();
      for (const image of await shared.listImages({ filters: { label: [`${TEST_LABEL}=${nonce}`] } }))
        await shared
          .getImage(image.Id)
          .remove({ force: true })
          .catch(() => undefined);
    }, 120_000);

    const taskOf = (name: string) =>
      database.prisma.task.findUniqueOrThrow({ where: { instanceId: instance(name) }, include: { environment: true } });
    const validate = async (name: string) => {
      const task = await taskOf(name);
      const group = await requestValidation(database.prisma, { taskId: task.id, actorId: null });
      return waitForGroup(database.prisma, group.groupId, 240_000);
    };

    it("imports the rows, picking each task's source and saying per batch how many got which", async () => {
      const file = path.join(rowsDir, "swe-bench-rows.json");
      const rows = [
        row("gold"),
        // the test patch does not apply to the repository in the image
        row("broken", { test_patch: testPatch.replaceAll("tests/test_ops.py", "tests/test_stats.py") }),
        row("missing"),
        row("elsewhere", { docker_image: "registry.example.com/octo/calc:1" }),
        // SWE-rebench rows with no docker_image: the harness spec stands in when the install_config names a test command
        row("spec", { install_config: { python: "3.9", install: "pip install -e .", test_cmd: "pytest -rA" } }),
        row("nothing", { install_config: { python: "3.9" } }),
      ];
      writeFileSync(file, JSON.stringify(rows));
      const batch = await importFile(database.prisma, file);
      expect(batch.failed).toBe(0);
      expect(batch.environmentSources).toEqual({ IMAGE: 4, NONE: 1, SPEC: 1 });
      const gold = await taskOf("gold");
      expect(gold.environment).toMatchObject({
        imageSource: "IMAGE",
        imageReference: `swebench/sweb.eval.x86_64.octo_1776_calc-${nonce}-gold:latest`,
        imageDigest: null,
      });
      expect((await taskOf("elsewhere")).environment.imageReference).toBe("registry.example.com/octo/calc:1");
    }, 120_000);

    it("validates a gold patch in the published image: VALID, with every test's status, pinned by digest", async () => {
      const runs = await validate("gold");
      expect(
        runs.map((run) => `${run.kind}: ${run.status} ${run.failureClass ?? ""} ${run.errorMessage ?? ""}`.trim()),
      ).toEqual([
        expect.stringMatching(/^NEGATIVE_CONTROL: SUCCEEDED/),
        expect.stringMatching(/^POSITIVE_CONTROL: SUCCEEDED/),
      ]);
      const [negative, positive] = runs;
      const statuses = (run: (typeof runs)[number]) =>
        Object.fromEntries(run.testResults.map((result) => [result.testId, result.actual]));
      expect(statuses(negative)).toMatchObject({ [F2P[0]]: "FAILED", [P2P[0]]: "PASSED", [P2P[1]]: "PASSED" });
      expect(statuses(positive)).toMatchObject({ [F2P[0]]: "PASSED", [P2P[0]]: "PASSED", [P2P[1]]: "PASSED" });
      const task = await taskOf("gold");
      expect(task.automatedVerdict).toBe("VALID");
      expect(task.environment.imageDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(positive.log).toContain(">>>>> Start Test Output");
    }, 300_000);

    it("gives a task whose test patch does not apply INVALID, as tests that did not run", async () => {
      const runs = await validate("broken");
      expect(runs.map((run) => run.errorMessage)).toEqual([
        expect.stringContaining("test patch does not apply"),
        expect.stringContaining("test patch does not apply"),
      ]);
      const task = await taskOf("broken");
      expect([task.automatedVerdict, task.failureClass]).toEqual(["INVALID", "TESTS_DID_NOT_RUN"]);
    }, 300_000);

    it("refuses an image in a registry the allow-list does not name before anything is fetched, naming the setting", async () => {
      const task = await taskOf("elsewhere");
      await expect(requestValidation(database.prisma, { taskId: task.id, actorId: null })).rejects.toThrow(
        `Task ${instance("elsewhere")} cannot be validated yet: the image registry.example.com/octo/calc:1 is in the registry registry.example.com, which IMAGE_REGISTRIES does not list`,
      );
      expect(await database.prisma.validationRun.count({ where: { taskId: task.id } })).toBe(0);
    });

    it("refuses a spec environment while no engine may build with a network (the build network is off by default)", async () => {
      const task = await taskOf("spec");
      expect(task.environment.imageSource).toBe("SPEC");
      await expect(requestValidation(database.prisma, { taskId: task.id, actorId: null })).rejects.toThrow(
        `Task ${instance("spec")} cannot be validated yet: its environment is generated from the harness spec, whose build installs packages, and no engine may build with a network; an admin names one in SPEC_BUILD_NETWORK_ENGINES.`,
      );
    });

    it("fails a run whose image the registry does not have with one sentence naming the task and the image", async () => {
      const runs = await validate("missing");
      expect(runs.every((run) => run.status === "FAILED" && run.failureClass === "INFRA_ERROR")).toBe(true);
      expect(runs[0].errorMessage).toContain(
        `Task ${instance("missing")} was not run: the registry at ${registry.host} has no image`,
      );
      expect((await taskOf("missing")).environment.imageDigest).toBeNull();
    }, 300_000);

    it("offers no Validate for a task with no environment, says why, and counts it in the funnel's 'no environment yet' stage", async () => {
      const task = await taskOf("nothing");
      const validations = await listTaskValidations(database.prisma, task.id, {}, NOT_BLIND);
      expect(validations.task.readiness).toEqual({
        ready: false,
        missing: expect.stringContaining(`Task ${instance("nothing")} has no environment yet`),
      });
      await expect(requestValidation(database.prisma, { taskId: task.id, actorId: null })).rejects.toThrow(
        "has no environment yet",
      );
      const funnel = await computeFunnel(
        database.prisma,
        FunnelQuerySchema.parse({ repository: "octo/calc" }),
        NOT_BLIND,
      );
      const drops = funnel.drops.rows.map((r) => [r.gate, r.cause, r.tasks]);
      expect(drops).toContainEqual(["Has an environment (a recipe, image or spec)", "no environment yet", 1]);
      // never among the failures
      expect(
        funnel.drops.rows.filter((r) => r.gate !== "Has an environment (a recipe, image or spec)").map((r) => r.cause),
      ).not.toContain("no environment yet");
    });

    it("refuses to run an image whose digest changed since it was pinned, and leaves the new image behind", async () => {
      const pinned = (await taskOf("gold")).environment.imageDigest!;
      await publish(instance("gold"), "RUN echo changed > /testbed/CHANGED");
      // a fresh host: the pinned image is not here
      await engine.untagImage(pinnedImageName(pinned));
      const runs = await validate("gold");
      expect(runs.map((run) => run.status)).toEqual(["FAILED", "FAILED"]);
      expect(runs[0].errorMessage).toMatch(
        new RegExp(
          `^Task ${instance("gold")}: the image .* now has digest sha256:[0-9a-f]{64}, but environment .* was pinned to ${pinned}`,
        ),
      );
      expect((await taskOf("gold")).environment.imageDigest).toBe(pinned);
      await waitFor(
        "the refused image to be gone from the engine",
        async () => !(await engine.imageInfo(`${registry.host}/${sweBenchImageName(instance("gold"))}`)),
        10_000,
      );

      // the way forward the sentence names: a curator re-pins, and the new image is pulled, pinned and run
      await repinEnvironmentImage(database.prisma, null, (await taskOf("gold")).environmentId);
      const again = await validate("gold");
      expect(again.map((run) => run.status)).toEqual(["SUCCEEDED", "SUCCEEDED"]);
      const repinned = await taskOf("gold");
      expect(repinned.environment.imageDigest).toMatch(/^sha256:/);
      expect(repinned.environment.imageDigest).not.toBe(pinned);
      expect(repinned.automatedVerdict).toBe("VALID");
    }, 300_000);
  },
);

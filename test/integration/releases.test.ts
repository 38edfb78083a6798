import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createEnvironment, createTask, createUser } from "../fixtures/factories/curation";
import { apiTokenFor, callRoute, type RouteHandler } from "../helpers/route-call";
import { recordDecision } from "../../lib/curation/record-decision";
import { claimNextTask } from "../../lib/curation/claim-next-task";
import { addEnvironmentRevision } from "../../lib/environments/add-revision";
import { createRelease } from "../../lib/releases/create-release";
import { diffReleases } from "../../lib/releases/diff-releases";
import { listTasks } from "../../lib/tasks/list-tasks";
import { NOT_BLIND } from "../../lib/auth/blind";
import * as releaseRoute from "../../app/api/v1/releases/[id]/route";
import * as releasesRoute from "../../app/api/v1/releases/route";
import * as exportRoute from "../../app/api/v1/releases/[id]/export/route";

// Decisions are bound to the evidence they were made on; releases snapshot the curated set.
// All against the real database: the staleness is the database's own triggers.

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db.drop());

const approve = async (curator: { id: string }, taskId: string) => {
  const { version } = await db.prisma.task.findUniqueOrThrow({ where: { id: taskId }, select: { version: true } });
  return recordDecision(db.prisma, curator, taskId, { verdict: "APPROVE", version });
};
const statusOf = async (taskId: string) =>
  (await db.prisma.task.findUniqueOrThrow({ where: { id: taskId } })).curationStatus;

async function finishRun(taskId: string, kind: "NEGATIVE_CONTROL" | "POSITIVE_CONTROL", resolved: boolean) {
  const { currentRevisionId } = await db.prisma.environment.findFirstOrThrow({
    where: { tasks: { some: { id: taskId } } },
  });
  const run = await db.prisma.validationRun.create({
    data: { taskId, revisionId: currentRevisionId!, kind, status: "RUNNING" },
  });
  return db.prisma.validationRun.update({
    where: { id: run.id },
    data: { status: "SUCCEEDED", resolved, finishedAt: new Date() },
  });
}

async function saveRevision(environmentId: string, authorId: string) {
  const { number } = await db.prisma.environmentRevision.findFirstOrThrow({
    where: { environmentId },
    orderBy: { number: "desc" },
  });
  await db.prisma.$transaction((tx) =>
    addEnvironmentRevision(tx, {
      environmentId,
      number: number + 1,
      dockerfile: `FROM base\nRUN echo ${number + 1}\n`,
      evalScript: "pytest\n",
      reason: "pin numpy",
      authorId,
    }),
  );
}

describe("a decision bound to its evidence", () => {
  it("goes stale when the recipe changes: the task is PENDING again, the queue hands it back to its curator with the reason, and it is audited", async () => {
    const env = await createEnvironment(db.prisma, "acme/stale-recipe");
    const curator = await createUser(db.prisma, "CURATOR");
    const task = await createTask(db.prisma, env.id, { automatedVerdict: "VALID" });
    await finishRun(task.id, "NEGATIVE_CONTROL", false);
    const { decision } = await approve(curator, task.id);
    expect(decision.evidenceFingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(decision.evidence).toMatchObject({
      recipe: { revisionId: env.revision.id, number: 1 },
      negative: { verdict: "SUCCEEDED:unresolved" },
    });
    expect(await statusOf(task.id)).toBe("APPROVED");
    const queue = { filters: `environment=${env.id}` };
    expect(await claimNextTask(db.prisma, curator, queue, NOT_BLIND)).toBeNull();

    await saveRevision(env.id, curator.id);

    const stale = await db.prisma.curationDecision.findUniqueOrThrow({ where: { id: decision.id } });
    expect(stale.staleAt).not.toBeNull();
    expect(stale.staleParts).toEqual(["recipe"]);
    expect(stale.staleReason).toBe("the recipe changed (revision 1 → 2)");
    expect(await statusOf(task.id)).toBe("PENDING");
    expect(await claimNextTask(db.prisma, curator, queue, NOT_BLIND)).toMatchObject({ taskId: task.id });
    const audit = await db.prisma.auditEvent.findFirstOrThrow({
      where: { entityId: task.id, action: "task.decisions_stale" },
    });
    expect(audit.after).toMatchObject({
      curationStatus: "PENDING",
      parts: ["recipe"],
      reason: "the recipe changed (revision 1 → 2)",
      decisionIds: [decision.id],
    });
  });

  it("goes stale on a new control verdict and on a changed candidate patch, naming which part", async () => {
    const env = await createEnvironment(db.prisma, "acme/stale-verdict");
    const curator = await createUser(db.prisma, "CURATOR");
    const task = await createTask(db.prisma, env.id, { automatedVerdict: "VALID" });
    await finishRun(task.id, "POSITIVE_CONTROL", true);
    const first = await approve(curator, task.id);
    await finishRun(task.id, "POSITIVE_CONTROL", false);
    const afterRun = await db.prisma.curationDecision.findUniqueOrThrow({ where: { id: first.decision.id } });
    expect(afterRun.staleParts).toEqual(["positive"]);
    expect(afterRun.staleReason).toBe(
      "the positive control verdict changed (SUCCEEDED:resolved → SUCCEEDED:unresolved)",
    );

    const second = await approve(curator, task.id);
    expect(await statusOf(task.id)).toBe("APPROVED");
    await db.prisma.candidatePatch.create({
      data: { taskId: task.id, generator: "model-x", patch: "diff --git a/w.py b/w.py\n" },
    });
    const afterPatch = await db.prisma.curationDecision.findUniqueOrThrow({ where: { id: second.decision.id } });
    expect(afterPatch.staleParts).toEqual(["candidatePatch"]);
    expect(await statusOf(task.id)).toBe("PENDING");
  });

  it("stays fresh when nothing it was made on changes (an edit of the problem statement is not evidence)", async () => {
    const env = await createEnvironment(db.prisma, "acme/fresh");
    const curator = await createUser(db.prisma, "CURATOR");
    const task = await createTask(db.prisma, env.id, { automatedVerdict: "VALID" });
    const { decision } = await approve(curator, task.id);
    await db.prisma.task.update({ where: { id: task.id }, data: { labels: ["x"], problemStatement: "reworded" } });
    expect((await db.prisma.curationDecision.findUniqueOrThrow({ where: { id: decision.id } })).staleAt).toBeNull();
    expect(await statusOf(task.id)).toBe("APPROVED");
  });
});

describe("releases", () => {
  it("diff as added, removed and changed, each with why; the flipped filter finds the verdict that changed since the latest release", async () => {
    const env = await createEnvironment(db.prisma, "acme/release-a");
    const other = await createEnvironment(db.prisma, "acme/release-b");
    const curator = await createUser(db.prisma, "CURATOR");
    const [kept, flipped, dropped, same] = [
      await createTask(db.prisma, other.id, { instanceId: "rel__kept-1", automatedVerdict: "VALID" }),
      await createTask(db.prisma, other.id, { instanceId: "rel__flipped-1", automatedVerdict: "VALID" }),
      await createTask(db.prisma, env.id, { instanceId: "rel__dropped-1", automatedVerdict: "VALID" }),
      await createTask(db.prisma, other.id, { instanceId: "rel__same-1", automatedVerdict: "VALID" }),
    ];
    await finishRun(flipped.id, "POSITIVE_CONTROL", true);
    for (const task of [kept, flipped, dropped, same]) await approve(curator, task.id);
    const first = await createRelease(db.prisma, curator, { name: "diff-v1" });

    // dropped: its recipe changes (stale, back to PENDING); flipped: its positive control now fails and is re-approved;
    // kept: a second curator approves too; added: a new approval
    await saveRevision(env.id, curator.id);
    await finishRun(flipped.id, "POSITIVE_CONTROL", false);
    const flippedBefore = await listTasks(db.prisma, { flipped: "yes", limit: 500 });
    expect(flippedBefore.items.map((t) => t.id)).toEqual([flipped.id]);
    await approve(curator, flipped.id);
    await approve(await createUser(db.prisma, "CURATOR"), kept.id);
    const added = await createTask(db.prisma, other.id, { instanceId: "rel__added-1", automatedVerdict: "VALID" });
    await approve(curator, added.id);
    const second = await createRelease(db.prisma, curator, { name: "diff-v2" });

    const diff = await diffReleases(db.prisma, "diff-v1", second.id, NOT_BLIND);
    expect(diff.from.id).toBe(first.id);
    expect(diff.added).toEqual([
      { taskId: added.id, instanceId: "rel__added-1", why: [expect.stringMatching(/^approved: approve by /)] },
    ]);
    expect(diff.removed).toEqual([
      {
        taskId: dropped.id,
        instanceId: "rel__dropped-1",
        why: ["now pending", "decision went stale: the recipe changed (revision 1 → 2)"],
      },
    ]);
    const changed = Object.fromEntries(diff.changed.map((c) => [c.instanceId, c]));
    expect(Object.keys(changed).sort()).toEqual(["rel__flipped-1", "rel__kept-1"]);
    expect(changed["rel__flipped-1"]).toMatchObject({
      evidenceParts: ["positive"],
      decisionChanged: false,
      why: ["evidence changed: positive control verdict"],
    });
    expect(changed["rel__kept-1"]).toMatchObject({ evidenceParts: [], decisionChanged: true });
    expect(changed["rel__kept-1"].why[0]).toMatch(/^decision changed: approve by .* → approve by .*, approve by /);
    const listed = new Set([...diff.added, ...diff.removed, ...diff.changed].map((entry) => entry.taskId));
    expect(listed.has(same.id)).toBe(false);
    expect(diff.unchanged).toBeGreaterThanOrEqual(1);
    // after the second release nothing has flipped since the latest one
    expect((await listTasks(db.prisma, { flipped: "yes", limit: 500 })).items).toEqual([]);
  });

  it("are immutable: changing one through the API is refused with why, and the database refuses it from any client", async () => {
    const { token } = await apiTokenFor(db.prisma, "ADMIN");
    const created = await callRoute(releasesRoute.POST as RouteHandler, token, "/api/v1/releases", {
      method: "POST",
      body: { name: "frozen-1" },
    });
    expect(created.status).toBe(201);
    const release = (await created.json()) as { id: string; name: string };
    for (const method of ["PATCH", "DELETE"] as const) {
      const response = await callRoute(releaseRoute[method] as RouteHandler, token, `/api/v1/releases/${release.id}`, {
        method,
        params: { id: release.id },
        body: { name: "renamed" },
      });
      expect(response.status).toBe(409);
      expect(((await response.json()) as { detail: string }).detail).toBe(
        'Release "frozen-1" is immutable: a release never changes once made; create a new release instead',
      );
    }
    await expect(db.prisma.release.update({ where: { id: release.id }, data: { name: "renamed" } })).rejects.toThrow(
      /Releases are immutable/,
    );
    expect(await db.prisma.releaseTask.count({ where: { releaseId: release.id } })).toBeGreaterThan(0);
    await expect(db.prisma.releaseTask.deleteMany({ where: { releaseId: release.id } })).rejects.toThrow(
      /Releases are immutable/,
    );
    await expect(db.prisma.$executeRawUnsafe("DELETE FROM releases WHERE id = $1", release.id)).rejects.toThrow(
      /Releases are immutable/,
    );
    expect((await db.prisma.release.findUniqueOrThrow({ where: { id: release.id } })).name).toBe("frozen-1");
    const taken = await callRoute(releasesRoute.POST as RouteHandler, token, "/api/v1/releases", {
      method: "POST",
      body: { name: "frozen-1" },
    });
    expect(taken.status).toBe(409);
  });

  it("export files name their release: the file names, the manifest and every row", async () => {
    const env = await createEnvironment(db.prisma, "acme/release-export");
    const curator = await createUser(db.prisma, "CURATOR");
    const task = await createTask(db.prisma, env.id, { instanceId: "rel__export-1", automatedVerdict: "VALID" });
    await approve(curator, task.id);
    const release = await createRelease(db.prisma, curator, { name: "export-v1", description: "first cut" });
    const { token } = await apiTokenFor(db.prisma, "VIEWER");

    const jsonl = await callRoute(exportRoute.GET as RouteHandler, token, `/api/v1/releases/export-v1/export`, {
      params: { id: "export-v1" },
    });
    expect(jsonl.headers.get("content-disposition")).toBe('attachment; filename="swe-curator-release-export-v1.jsonl"');
    const rows = (await jsonl.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { instance_id: string; swe_curator: Record<string, unknown> });
    const row = rows.find((r) => r.instance_id === "rel__export-1")!;
    expect(row.swe_curator).toMatchObject({
      release: "export-v1",
      release_id: release.id,
      evidence_fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const manifest = await callRoute(
      exportRoute.GET as RouteHandler,
      token,
      `/api/v1/releases/${release.id}/export?file=manifest`,
      { params: { id: release.id } },
    );
    expect(manifest.headers.get("content-disposition")).toBe(
      'attachment; filename="swe-curator-release-export-v1.manifest.json"',
    );
    const body = (await manifest.json()) as {
      release: { name: string };
      files: { tasks: string };
      tasks: { instance_id: string; evidence_fingerprint: string }[];
    };
    expect(body.release.name).toBe("export-v1");
    expect(body.files.tasks).toBe("swe-curator-release-export-v1.jsonl");
    expect(body.tasks.find((t) => t.instance_id === "rel__export-1")?.evidence_fingerprint).toBe(
      row.swe_curator.evidence_fingerprint,
    );
  });
});

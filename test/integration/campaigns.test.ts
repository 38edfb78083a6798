import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createEnvironment, createTask, createUser } from "../fixtures/factories/curation";
import { callRoute } from "../helpers/route-call";
import { createApiToken } from "../../lib/auth/api-tokens";
import { createCampaign } from "../../lib/campaigns/create-campaign";
import { serveNext } from "../../lib/campaigns/serve-next";
import { submitLabel } from "../../lib/campaigns/submit-label";
import { campaignExportRows } from "../../lib/campaigns/export-campaign";
import { defaultRubricVersion, saveRubricVersion } from "../../lib/campaigns/rubrics";
import { DEFAULT_RUBRIC_NAME, DEFAULT_RUBRIC_QUESTIONS } from "../../lib/campaigns/rubric";
import type { Answers } from "../../lib/campaigns/rubric";
import type { Actor } from "../../lib/auth/actor";
import * as campaignsRoute from "../../app/api/v1/campaigns/route";
import * as reportRoute from "../../app/api/v1/campaigns/[id]/route";
import * as nextRoute from "../../app/api/v1/campaigns/[id]/next/route";
import * as itemRoute from "../../app/api/v1/campaigns/[id]/item/route";
import * as labelsRoute from "../../app/api/v1/campaigns/[id]/labels/route";
import * as exportRoute from "../../app/api/v1/campaigns/[id]/export/route";
import * as adjudicationsRoute from "../../app/api/v1/campaigns/[id]/adjudications/route";

// Campaigns against the real database: exactly N labels per task under concurrent
// annotators, the combination and drop rules on a seeded campaign, and blind mode attacked
// through the API.

let db: TestDatabase;
let admin: Actor & { token: string };
beforeAll(async () => {
  db = await createTestDatabase();
  const user = await createUser(db.prisma, "ADMIN", "Ada Admin");
  admin = {
    id: user.id,
    email: user.email,
    name: user.name,
    role: "ADMIN",
    token: (await createApiToken(db.prisma, user.id, { name: "admin" })).token,
  };
});
afterAll(async () => db.drop());

async function annotators(count: number) {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const user = await createUser(db.prisma, "CURATOR", `Annotator ${i}`);
      const { token } = await createApiToken(db.prisma, user.id, { name: "annotator" });
      return { id: user.id, email: user.email, name: user.name, role: "CURATOR" as const, token };
    }),
  );
}

const answers = (over: Partial<Answers> = {}): Answers => ({
  underspecified: 0,
  underspecified_reason: "The issue names the function and the expected value.",
  tests_valid: 0,
  tests_reason: "The test checks exactly the behaviour the issue asks for.",
  difficulty: 0,
  major_issue: false,
  confidence: 4,
  ...over,
});

async function seedTasks(repo: string, count: number) {
  const env = await createEnvironment(db.prisma, repo);
  for (let i = 0; i < count; i++)
    await createTask(db.prisma, env.id, { instanceId: `${repo.replace("/", "__")}-${i}`, automatedVerdict: "VALID" });
}

describe("exactly N labels per task", () => {
  it("gives 5 tasks exactly 3 labels each from 6 annotators asking and submitting at once", async () => {
    await seedTasks("acme/overlap", 5);
    const team = await annotators(6);
    const campaign = await createCampaign(db.prisma, admin, {
      name: "overlap",
      viewQuery: "repository=acme/overlap",
      annotatorIds: team.map((a) => a.id),
      overlap: 3,
    });
    expect(campaign.tasks).toBe(5);

    // every annotator loops "next → submit" through the API until nothing is left, all at once
    const work = async (annotator: (typeof team)[number]) => {
      let labelled = 0;
      for (let round = 0; round < 20; round++) {
        const served = await (
          await callRoute(nextRoute.POST, annotator.token, `/api/v1/campaigns/${campaign.id}/next`, {
            method: "POST",
            params: { id: campaign.id },
          })
        ).json();
        if (served.kind === "done") return labelled;
        const response = await callRoute(labelsRoute.POST, annotator.token, `/api/v1/campaigns/${campaign.id}/labels`, {
          method: "POST",
          params: { id: campaign.id },
          body: { taskId: served.taskId, answers: answers() },
        });
        if (response.status === 201) labelled++;
        else expect(response.status).toBe(409); // lost a race to the Nth label: refused, never a 4th label
      }
      throw new Error("an annotator never ran out of tasks");
    };
    const labelled = await Promise.all(team.map(work));
    expect(labelled.reduce((s, n) => s + n, 0)).toBe(15);

    const rows = await db.prisma.campaignLabel.groupBy({
      by: ["taskId"],
      where: { campaignId: campaign.id, submittedAt: { not: null } },
      _count: { _all: true },
    });
    expect(rows.map((r) => r._count._all)).toEqual([3, 3, 3, 3, 3]);
    const perAnnotatorTask = await db.prisma.campaignLabel.groupBy({
      by: ["taskId", "annotatorId"],
      where: { campaignId: campaign.id, submittedAt: { not: null } },
      _count: { _all: true },
    });
    expect(perAnnotatorTask.every((r) => r._count._all === 1)).toBe(true);
    // finished tasks carry the outcome and leave no lease behind
    const tasks = await db.prisma.task.findMany({ where: { environment: { repository: { name: "overlap" } } } });
    expect(tasks.map((t) => [t.curationStatus, t.leasedById])).toEqual(Array(5).fill(["APPROVED", null]));
  });

  it("serves a task another annotator holds when it still has room for a label, instead of saying done", async () => {
    await seedTasks("acme/held", 1);
    const [ann, bob, cat] = await annotators(3);
    const campaign = await createCampaign(db.prisma, admin, {
      name: "held",
      viewQuery: "repository=acme/held",
      annotatorIds: [ann.id, bob.id, cat.id],
      overlap: 2,
    });
    const first = await serveNext(db.prisma, ann, campaign.id);
    const second = await serveNext(db.prisma, bob, campaign.id);
    expect(second).toMatchObject({ kind: "task", taskId: first.kind === "task" ? first.taskId : "" });
    // two annotators hold it: the third would make three labels on a task that needs two
    expect((await serveNext(db.prisma, cat, campaign.id)).kind).toBe("done");
  });

  it("refuses a label on a task the annotator was not served, and a second label by the same annotator", async () => {
    await seedTasks("acme/unserved", 2);
    const [ann, bob] = await annotators(2);
    const campaign = await createCampaign(db.prisma, admin, {
      name: "unserved",
      viewQuery: "repository=acme/unserved",
      annotatorIds: [ann.id, bob.id],
      overlap: 2,
    });
    const served = await serveNext(db.prisma, ann, campaign.id);
    if (served.kind !== "task") throw new Error("expected a task");
    const other = await db.prisma.campaignTask.findFirstOrThrow({
      where: { campaignId: campaign.id, taskId: { not: served.taskId } },
    });
    await expect(
      submitLabel(db.prisma, ann, campaign.id, { taskId: other.taskId, answers: answers() }),
    ).rejects.toThrow(/not handed to you/);
    await submitLabel(db.prisma, ann, campaign.id, { taskId: served.taskId, answers: answers() });
    await expect(
      submitLabel(db.prisma, ann, campaign.id, { taskId: served.taskId, answers: answers() }),
    ).rejects.toThrow(/already labelled/);
  });

  it("names every missing or bad answer in a 422", async () => {
    await seedTasks("acme/badanswers", 1);
    const [ann] = await annotators(1);
    const campaign = await createCampaign(db.prisma, admin, {
      name: "bad answers",
      viewQuery: "repository=acme/badanswers",
      annotatorIds: [ann.id],
      overlap: 1,
    });
    const served = await serveNext(db.prisma, ann, campaign.id);
    const response = await callRoute(labelsRoute.POST, ann.token, `/api/v1/campaigns/${campaign.id}/labels`, {
      method: "POST",
      params: { id: campaign.id },
      body: {
        taskId: (served as { taskId: string }).taskId,
        answers: { ...answers({ underspecified: 7, major_issue: true }), tests_reason: "short" },
      },
    });
    expect(response.status).toBe(422);
    const problem = await response.json();
    expect(problem.errors.map((e: { field: string }) => e.field)).toEqual([
      "answers.underspecified",
      "answers.tests_reason",
      "answers.major_issue_reason",
    ]);
    expect(problem.detail).toContain("write at least 20 characters");
  });
});

describe("combination and drop rules on a seeded campaign", () => {
  it("drops and keeps exactly the tasks computed by hand, with most-severe and majority", async () => {
    await seedTasks("acme/rules", 3);
    const team = await annotators(3);
    const severe = await createCampaign(db.prisma, admin, {
      name: "rules severe",
      viewQuery: "repository=acme/rules",
      annotatorIds: team.map((a) => a.id),
      overlap: 3,
      combination: "MOST_SEVERE",
    });
    const tasks = await db.prisma.task.findMany({
      where: { instanceId: { startsWith: "acme__rules-" } },
      orderBy: { instanceId: "asc" },
    });
    // per task, the three annotators' answers (underspecified, tests_valid, major_issue)
    const plan: Record<string, Partial<Answers>[]> = {
      "acme__rules-0": [{ underspecified: 0 }, { underspecified: 1 }, { underspecified: 2 }], // most severe 2 → dropped; majority: 0,1,2 tie → most severe of the tie = 2 → dropped
      "acme__rules-1": [{ tests_valid: 1 }, { tests_valid: 1 }, { tests_valid: 3 }], // most severe 3 → dropped; majority 1 → kept
      "acme__rules-2": [{ major_issue: true, major_issue_reason: "The patch reverts an unrelated fix." }, {}, {}], // any yes → dropped; majority no → kept
    };
    for (const annotator of team) {
      for (let i = 0; i < 3; i++) {
        const served = await serveNext(db.prisma, annotator, severe.id);
        if (served.kind !== "task") throw new Error("expected a task");
        const slot = team.indexOf(annotator);
        await submitLabel(db.prisma, annotator, severe.id, {
          taskId: served.taskId,
          answers: answers(plan[served.instanceId][slot]),
        });
      }
    }
    const rows = await campaignExportRows(db.prisma, severe.id);
    expect(
      rows.map((r) => [r.instance_id, r.underspecified, r.false_negative, r.other_major_issues, r.filter_out]),
    ).toEqual([
      ["acme__rules-0", 2, 0, false, true],
      ["acme__rules-1", 0, 3, false, true],
      ["acme__rules-2", 0, 0, true, true],
    ]);
    expect(rows[0].difficulty).toBe("Under 15 min");
    expect(rows[1].drop_reasons).toEqual(["tests_valid 3 ≥ 2"]);
    expect(
      (await db.prisma.task.findMany({ where: { id: { in: tasks.map((t) => t.id) } } })).every(
        (t) => t.curationStatus === "REJECTED",
      ),
    ).toBe(true);

    // the same labels under the majority rule
    await db.prisma.campaign.update({ where: { id: severe.id }, data: { combination: "MAJORITY" } });
    const majority = await campaignExportRows(db.prisma, severe.id);
    expect(majority.map((r) => [r.instance_id, r.filter_out])).toEqual([
      ["acme__rules-0", true],
      ["acme__rules-1", false],
      ["acme__rules-2", false],
    ]);
    // and the mean: task 0 underspecified (0+1+2)/3 = 1 → kept; task 1 tests (1+1+3)/3 = 1.67 → kept
    await db.prisma.campaign.update({ where: { id: severe.id }, data: { combination: "MEAN" } });
    const mean = await campaignExportRows(db.prisma, severe.id);
    expect(mean.map((r) => [r.underspecified, r.false_negative, r.filter_out])).toEqual([
      [1, 0, false],
      [0, 1.67, false],
      [0, 0, false],
    ]);

    // an adjudication overrides the combination and is kept apart from the labels
    const adjudicated = await callRoute(
      adjudicationsRoute.POST,
      admin.token,
      `/api/v1/campaigns/${severe.id}/adjudications`,
      {
        method: "POST",
        params: { id: severe.id },
        body: {
          taskId: tasks[0].id,
          answers: answers({ underspecified: 3 }),
          note: "The issue never says which format.",
        },
      },
    );
    expect(adjudicated.status).toBe(201);
    expect((await adjudicated.json()).outcome).toMatchObject({ dropped: true, adjudicated: true });
    expect(
      await db.prisma.campaignLabel.count({
        where: { campaignId: severe.id, taskId: tasks[0].id, submittedAt: { not: null } },
      }),
    ).toBe(3);
    const csv = await (
      await callRoute(exportRoute.GET, admin.token, `/api/v1/campaigns/${severe.id}/export?format=csv`, {
        params: { id: severe.id },
      })
    ).text();
    expect(csv.split("\r\n")[0]).toBe(
      "instance_id,repo,underspecified,false_negative,other_major_issues,difficulty,filter_out,drop_reasons,adjudicated,campaign,rubric,combination,rubric_answers,labels",
    );
    expect(csv.split("\r\n")[1]).toMatch(/^acme__rules-0,acme\/rules,3,0,false,Under 15 min,true,/);
  });
});

describe("rubric versions", () => {
  it("keeps a campaign and its labels on the version they were given under when the rubric changes", async () => {
    await seedTasks("acme/versions", 1);
    const [ann] = await annotators(1);
    const v1 = await defaultRubricVersion(db.prisma);
    const campaign = await createCampaign(db.prisma, admin, {
      name: "versions",
      viewQuery: "repository=acme/versions",
      annotatorIds: [ann.id],
      overlap: 1,
    });
    const v2 = await saveRubricVersion(db.prisma, admin.id, {
      name: DEFAULT_RUBRIC_NAME,
      questions: DEFAULT_RUBRIC_QUESTIONS.filter((q) => q.key !== "confidence"),
    });
    expect(v2.version).toBe(v1.version + 1);
    const served = await serveNext(db.prisma, ann, campaign.id);
    await submitLabel(db.prisma, ann, campaign.id, {
      taskId: (served as { taskId: string }).taskId,
      answers: answers(),
    });
    const [row] = await campaignExportRows(db.prisma, campaign.id);
    expect(row.rubric).toBe(`${DEFAULT_RUBRIC_NAME} v${v1.version}`);
    expect((row.labels as { rubric_version: number; answers: Answers }[])[0]).toMatchObject({
      rubric_version: v1.version,
      answers: { confidence: 4 },
    });
  });
});

describe("blind mode, attacked through the API", () => {
  it("hides others' answers, the verdict and the report from an annotator until they submit", async () => {
    await seedTasks("acme/blind", 1);
    const [first, second] = await annotators(2);
    const campaign = await createCampaign(db.prisma, admin, {
      name: "blind",
      viewQuery: "repository=acme/blind",
      annotatorIds: [first.id, second.id],
      overlap: 2,
    });
    const served = await serveNext(db.prisma, first, campaign.id);
    if (served.kind !== "task") throw new Error("expected a task");
    const secret = "UNIQUE-SECRET-REASON: the tests check an unrelated helper";
    await submitLabel(db.prisma, first, campaign.id, {
      taskId: served.taskId,
      answers: answers({ tests_valid: 3, tests_reason: secret }),
    });

    const item = (who: { token: string }) =>
      callRoute(itemRoute.GET, who.token, `/api/v1/campaigns/${campaign.id}/item?taskId=${served.taskId}`, {
        params: { id: campaign.id },
      });
    // the second annotator has not submitted: asks for the task directly (not even served yet) and after being served
    for (const stage of ["before serve", "after serve"]) {
      if (stage === "after serve") expect((await serveNext(db.prisma, second, campaign.id)).kind).toBe("task");
      const response = await item(second);
      expect(response.status, stage).toBe(200);
      const text = await response.text();
      expect(text, stage).not.toContain(secret);
      expect(text, stage).not.toContain("automatedVerdict");
      const body = JSON.parse(text);
      expect(body.others, stage).toBeNull();
      expect(body.submittedCount, stage).toBeNull();
      expect(body.hidden, stage).toEqual({ others: true, verdict: true });
    }
    // the campaign's other endpoints do not leak the labels either
    const report = await (
      await callRoute(reportRoute.GET, second.token, `/api/v1/campaigns/${campaign.id}`, {
        params: { id: campaign.id },
      })
    ).text();
    expect(report).not.toContain(secret);
    expect(JSON.parse(report).disagreements).toEqual([]);
    expect(
      (
        await callRoute(exportRoute.GET, second.token, `/api/v1/campaigns/${campaign.id}/export`, {
          params: { id: campaign.id },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await callRoute(adjudicationsRoute.POST, second.token, `/api/v1/campaigns/${campaign.id}/adjudications`, {
          method: "POST",
          params: { id: campaign.id },
          body: { taskId: served.taskId, answers: answers() },
        })
      ).status,
    ).toBe(403);
    // a curator who is not an annotator cannot even see the campaign
    const [outsider] = await annotators(1);
    expect((await item(outsider)).status).toBe(404);
    expect((await (await callRoute(campaignsRoute.GET, outsider.token, "/api/v1/campaigns")).json()).items).toEqual([]);

    // after submitting, the second annotator sees the first one's answers and the verdict
    await submitLabel(db.prisma, second, campaign.id, { taskId: served.taskId, answers: answers() });
    const after = await (await item(second)).json();
    expect(after.others[0].answers.tests_reason).toBe(secret);
    expect(after.task.automatedVerdict).toBe("VALID");
    expect(after.hidden).toEqual({ others: false, verdict: false });
  });

  it("shows others' answers at once when the campaign is not blind", async () => {
    await seedTasks("acme/open", 1);
    const [first, second] = await annotators(2);
    const campaign = await createCampaign(db.prisma, admin, {
      name: "open",
      viewQuery: "repository=acme/open",
      annotatorIds: [first.id, second.id],
      overlap: 2,
      blind: false,
      hideVerdict: false,
    });
    const served = await serveNext(db.prisma, first, campaign.id);
    await submitLabel(db.prisma, first, campaign.id, {
      taskId: (served as { taskId: string }).taskId,
      answers: answers(),
    });
    const body = await (
      await callRoute(
        itemRoute.GET,
        second.token,
        `/api/v1/campaigns/${campaign.id}/item?taskId=${(served as { taskId: string }).taskId}`,
        { params: { id: campaign.id } },
      )
    ).json();
    expect(body.others).toHaveLength(1);
    expect(body.task.automatedVerdict).toBe("VALID");
  });
});

describe("gold onboarding", () => {
  it("serves gold tasks first, shows the reference after each, and opens real tasks once the bar is met", async () => {
    await seedTasks("acme/goldreal", 2);
    await seedTasks("acme/goldset", 2);
    const [novice, other] = await annotators(2);
    const gold = await db.prisma.task.findMany({
      where: { instanceId: { startsWith: "acme__goldset-" } },
      orderBy: { instanceId: "asc" },
    });
    const reference = answers({ underspecified: 1 });
    const campaign = await createCampaign(db.prisma, admin, {
      name: "gold",
      viewQuery: "repository=acme/goldreal",
      annotatorIds: [novice.id, other.id],
      overlap: 2,
      goldThreshold: 0.8,
      gold: gold.map((t) => ({ taskId: t.id, reference, explanation: "The issue leaves the rounding mode open." })),
    });
    // first attempt: on each gold task misses underspecified (0, reference 1) and confidence (1, reference 4): 3 of 5 scored answers → 0.6 < 0.8 → starts over
    for (let i = 0; i < 2; i++) {
      const served = await serveNext(db.prisma, novice, campaign.id);
      expect(served.kind).toBe("gold");
      const result = await submitLabel(db.prisma, novice, campaign.id, {
        taskId: (served as { taskId: string }).taskId,
        answers: answers({ confidence: 1 }),
      });
      expect(result.gold?.reference.underspecified).toBe(1);
      expect(result.gold?.explanation).toContain("rounding mode");
      if (i === 1) expect(result.gold).toMatchObject({ restarted: true, gate: { passed: false } });
    }
    expect((await serveNext(db.prisma, novice, campaign.id)).kind).toBe("gold");
    // second attempt matches the references → real tasks
    for (let i = 0; i < 2; i++) {
      const served = await serveNext(db.prisma, novice, campaign.id);
      const result = await submitLabel(db.prisma, novice, campaign.id, {
        taskId: (served as { taskId: string }).taskId,
        answers: reference,
      });
      if (i === 1) expect(result.gold?.gate).toMatchObject({ passed: true, accuracy: 1 });
    }
    const real = await serveNext(db.prisma, novice, campaign.id);
    expect(real.kind).toBe("task");
    expect((real as { instanceId: string }).instanceId).toMatch(/^acme__goldreal-/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createEnvironment, createTask, createUser } from "../fixtures/factories/curation";
import { callRoute, type RouteHandler } from "../helpers/route-call";
import { createApiToken } from "../../lib/auth/api-tokens";
import { createCampaign } from "../../lib/campaigns/create-campaign";
import { serveNext } from "../../lib/campaigns/serve-next";
import { submitLabel } from "../../lib/campaigns/submit-label";
import type { Actor } from "../../lib/auth/actor";
import type { Role } from "../../lib/db/enums";
import * as taskRoute from "../../app/api/v1/tasks/[id]/route";
import * as tasksRoute from "../../app/api/v1/tasks/route";
import * as facetsRoute from "../../app/api/v1/tasks/facets/route";
import * as runsRoute from "../../app/api/v1/runs/route";
import * as runRoute from "../../app/api/v1/runs/[id]/route";
import * as runLogRoute from "../../app/api/v1/runs/[id]/log/route";

// Blind mode outside the campaign pages: an annotator with an unsubmitted label on a task of
// a blind campaign tries to read its verdict, failure class and runs through the ordinary
// task and run API. Every route keeps them back until the label is submitted; an admin and
// a curator who is not an annotator see them all along.

let db: TestDatabase;
let admin: Actor & { token: string };
let annotator: Actor & { token: string };
let outsider: Actor & { token: string };
let taskId: string;
let runId: string;
let campaignId: string;

async function person(role: Role, name: string) {
  const user = await createUser(db.prisma, role, name);
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role,
    token: (await createApiToken(db.prisma, user.id, { name })).token,
  };
}

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await person("ADMIN", "Ada Admin");
  annotator = await person("CURATOR", "Bea Blind");
  outsider = await person("CURATOR", "Cy Curator");
  const env = await createEnvironment(db.prisma, "acme/blindfold");
  const task = await createTask(db.prisma, env.id, {
    instanceId: "acme__blindfold-1",
    automatedVerdict: "INVALID",
    failureClass: "NEGATIVE_CONTROL_PASSED",
  });
  taskId = task.id;
  const run = await db.prisma.validationRun.create({
    data: {
      taskId,
      revisionId: env.revision.id,
      kind: "NEGATIVE_CONTROL",
      groupId: "g-blind",
      status: "SUCCEEDED",
      failureClass: "NEGATIVE_CONTROL_PASSED",
      exitCode: 0,
      log: "1 passed — the control should have failed",
    },
  });
  runId = run.id;
  const campaign = await createCampaign(db.prisma, admin, {
    name: "blindfold",
    viewQuery: "repository=acme/blindfold",
    annotatorIds: [annotator.id],
    overlap: 1,
  });
  campaignId = campaign.id;
  const served = await serveNext(db.prisma, annotator, campaignId);
  expect(served).toMatchObject({ taskId }); // the label is open: served, not submitted
});
afterAll(async () => db.drop());

const get = (handler: RouteHandler, who: { token: string }, path: string, params: Record<string, string> = {}) =>
  callRoute(handler, who.token, path, { params });

/** Everything the ordinary API tells `who` about the task's judgement. */
async function whatIsRevealed(who: { token: string }) {
  const detail = await (await get(taskRoute.GET, who, `/api/v1/tasks/${taskId}`, { id: taskId })).json();
  const list = await (await get(tasksRoute.GET, who, "/api/v1/tasks?repository=acme/blindfold")).json();
  const byVerdict = await (
    await get(tasksRoute.GET, who, "/api/v1/tasks?repository=acme/blindfold&verdict=INVALID")
  ).json();
  const facets = await (await get(facetsRoute.GET, who, "/api/v1/tasks/facets?repository=acme/blindfold")).json();
  // without filters the counts come from the pre-counted tallies, less the tasks the reader is blind on
  const unfiltered = await (await get(facetsRoute.GET, who, "/api/v1/tasks/facets")).json();
  const runs = await (await get(runsRoute.GET, who, `/api/v1/runs?taskId=${taskId}`)).json();
  const run = await get(runRoute.GET, who, `/api/v1/runs/${runId}`, { id: runId });
  const log = await get(runLogRoute.GET, who, `/api/v1/runs/${runId}/log`, { id: runId });
  await log.body?.cancel();
  return {
    detail: {
      verdict: detail.automatedVerdict,
      failureClass: detail.failureClass,
      hidden: detail.verdictHidden ?? null,
      resolved: detail.candidatePatches,
    },
    listed: list.items.map((item: { instanceId: string; automatedVerdict: string; failureClass: string | null }) => [
      item.instanceId,
      item.automatedVerdict,
      item.failureClass,
    ]),
    listedByVerdict: byVerdict.items.length,
    facetVerdicts: facets.facets.verdict,
    unfilteredFacets: {
      total: unfiltered.total,
      verdicts: unfiltered.facets.verdict,
      repositories: unfiltered.repositories,
    },
    runs: { groups: runs.items.length, verdict: runs.task.automatedVerdict, failureClass: runs.task.failureClass },
    run: run.status,
    runFailureClass: run.status === 200 ? (await run.json()).failureClass : null,
    log: log.status,
  };
}

const SEEN = {
  detail: { verdict: "INVALID", failureClass: "NEGATIVE_CONTROL_PASSED", hidden: null, resolved: [] },
  listed: [["acme__blindfold-1", "INVALID", "NEGATIVE_CONTROL_PASSED"]],
  listedByVerdict: 1,
  facetVerdicts: { INVALID: 1 },
  unfilteredFacets: { total: 1, verdicts: { INVALID: 1 }, repositories: [{ repository: "acme/blindfold", count: 1 }] },
  runs: { groups: 1, verdict: "INVALID", failureClass: "NEGATIVE_CONTROL_PASSED" },
  run: 200,
  runFailureClass: "NEGATIVE_CONTROL_PASSED",
  log: 200,
};

describe("blind mode through the task and run API", () => {
  it("keeps the verdict, failure class and runs from an annotator whose label is open", async () => {
    expect(await whatIsRevealed(annotator)).toEqual({
      detail: { verdict: null, failureClass: null, hidden: "hidden until you submit your label", resolved: [] },
      listed: [],
      listedByVerdict: 0,
      facetVerdicts: {},
      unfilteredFacets: { total: 0, verdicts: {}, repositories: [] },
      runs: { groups: 0, verdict: null, failureClass: null },
      run: 404,
      runFailureClass: null,
      log: 404,
    });
  });

  it("shows everything to a curator who is not an annotator, and to an admin", async () => {
    expect(await whatIsRevealed(outsider)).toEqual(SEEN);
    expect(await whatIsRevealed(admin)).toEqual(SEEN);
  });

  it("shows everything to the annotator once their label is submitted", async () => {
    await submitLabel(db.prisma, annotator, campaignId, {
      taskId,
      answers: {
        underspecified: 0,
        underspecified_reason: "The issue names the function and the expected value.",
        tests_valid: 0,
        tests_reason: "The test checks exactly the behaviour the issue asks for.",
        difficulty: 0,
        major_issue: false,
        confidence: 4,
      },
    });
    expect(await whatIsRevealed(annotator)).toEqual(SEEN);
  });
});

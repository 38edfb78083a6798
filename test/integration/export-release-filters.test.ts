import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createEnvironment, createTask, createUser } from "../fixtures/factories/curation";
import { createApiToken } from "../../lib/auth/api-tokens";
import { defaultRubricVersion } from "../../lib/campaigns/rubrics";
import { exportTasks, planExport, resolveExportFilters, type ExportRequest } from "../../lib/exports/export-tasks";
import * as exportsRoute from "../../app/api/v1/exports/route";
import * as previewRoute from "../../app/api/v1/exports/preview/route";
import type { DecisionVerdict } from "../../lib/db/enums";

// A dataset release exports what was validated: a task approved (here in a campaign) but never
// validated stays out by default, and the export says what it left out and why, per reason.

const BASE = "http://localhost/api/v1";
let db: TestDatabase;
let viewer: string;
const ids: Record<string, string> = {};

async function collect(lines: AsyncGenerator<string>) {
  let text = "";
  for await (const chunk of lines) text += chunk;
  return text
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line).instance_id as string);
}

async function exported(request: ExportRequest) {
  const { filters, release } = await resolveExportFilters(db.prisma, null, {
    query: "repository=acme/release",
    ...request,
  });
  const plan = await planExport(db.prisma, filters, { release });
  return { rows: await collect(exportTasks(db.prisma, filters, { plan })), report: plan.report };
}

beforeAll(async () => {
  db = await createTestDatabase();
  const env = await createEnvironment(db.prisma, "acme/release");
  const curator = await createUser(db.prisma, "CURATOR");
  const [ann, bob] = [await createUser(db.prisma, "CURATOR"), await createUser(db.prisma, "CURATOR")];
  viewer = (await createApiToken(db.prisma, (await createUser(db.prisma, "VIEWER")).id, { name: "t" })).token;
  const make = async (name: string, verdict: "VALID" | "INVALID" | "PENDING", decisions: DecisionVerdict[]) => {
    const task = await createTask(db.prisma, env.id, {
      instanceId: `acme__release-${name}`,
      automatedVerdict: verdict,
      curationStatus: "APPROVED",
    });
    for (const [i, verdictOfDecision] of decisions.entries()) {
      await db.prisma.curationDecision.create({
        data: {
          taskId: task.id,
          curatorId: curator.id,
          verdict: verdictOfDecision,
          createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
        },
      });
    }
    ids[name] = task.id;
  };
  await make("agreed", "VALID", ["APPROVE"]);
  await make("campaign-only", "PENDING", []); // approved in a campaign, never validated
  await make("invalid", "INVALID", ["APPROVE"]);
  await make("disputed", "VALID", ["APPROVE"]);
  await make("rejected-later", "VALID", ["APPROVE", "REJECT"]);

  const rubric = await defaultRubricVersion(db.prisma);
  const campaign = await db.prisma.campaign.create({
    data: {
      name: "release",
      rubricVersionId: rubric.id,
      overlap: 2,
      dropRule: {},
      viewQuery: "repository=acme/release",
      status: "CLOSED",
    },
  });
  const label = (task: string, annotatorId: string, underspecified: number) =>
    db.prisma.campaignLabel.create({
      data: {
        campaignId: campaign.id,
        taskId: ids[task],
        annotatorId,
        rubricVersionId: rubric.id,
        answers: { underspecified },
        submittedAt: new Date(),
      },
    });
  await label("agreed", ann.id, 0);
  await label("agreed", bob.id, 0);
  await label("disputed", ann.id, 0);
  await label("disputed", bob.id, 3);
  await label("campaign-only", ann.id, 1);
  await label("campaign-only", bob.id, 1);
});
afterAll(async () => db.drop());

describe("export release filters", () => {
  it("exports validated tasks only by default, saying which approved tasks it left out and why", async () => {
    const { rows, report } = await exported({});
    expect(rows).toEqual(["acme__release-agreed", "acme__release-disputed", "acme__release-rejected-later"]);
    expect(report).toMatchObject({ considered: 5, exported: 3, excluded: 2 });
    expect(report.sentence).toBe("2 tasks excluded: 1 never validated, 1 verdict INVALID");
  });

  it("exports every selected task when validated-only is turned off, and says nothing was excluded", async () => {
    const { rows, report } = await exported({ validatedOnly: "false" });
    expect(rows).toHaveLength(5);
    expect(rows).toContain("acme__release-campaign-only");
    expect(report.sentence).toBe("No task excluded");
  });

  it("filters on the verdict and on the latest curator decision", async () => {
    const invalid = await exported({ validatedOnly: false, verdict: "INVALID" });
    expect(invalid.rows).toEqual(["acme__release-invalid"]);
    expect(invalid.report.reasons).toEqual([
      { reason: "verdict VALID", count: 3 },
      { reason: "never validated", count: 1 },
    ]);
    const approved = await exported({ decision: "APPROVE" });
    expect(approved.rows).not.toContain("acme__release-rejected-later");
    expect(approved.report.reasons).toContainEqual({ reason: "latest decision REJECT", count: 1 });
  });

  it("keeps only tasks whose campaign annotators agreed enough", async () => {
    const { rows, report } = await exported({ agreement: "1" });
    expect(rows).toEqual(["acme__release-agreed"]);
    expect(report.reasons).toEqual(
      expect.arrayContaining([
        { reason: "campaign agreement below 100%", count: 1 },
        { reason: "not labelled by two campaign annotators", count: 1 },
      ]),
    );
  });

  it("refuses an agreement outside 0–1 in one sentence", async () => {
    const response = await exportsRoute.GET(
      new Request(`${BASE}/exports?agreement=80`, { headers: { authorization: `Bearer ${viewer}` } }),
    );
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain("agreement must be at most 1");
  });

  it("states the exclusions in the API answer: the download's headers and the preview", async () => {
    const query = "query=" + encodeURIComponent("repository=acme/release");
    const response = await exportsRoute.GET(
      new Request(`${BASE}/exports?${query}`, { headers: { authorization: `Bearer ${viewer}` } }),
    );
    expect(response.status).toBe(200);
    expect(decodeURIComponent(response.headers.get("x-export-excluded")!)).toBe(
      "2 tasks excluded: 1 never validated, 1 verdict INVALID",
    );
    expect(JSON.parse(decodeURIComponent(response.headers.get("x-export-report")!))).toMatchObject({
      exported: 3,
      excluded: 2,
    });
    expect((await response.text()).trim().split("\n")).toHaveLength(3);
    const preview = await previewRoute.GET(
      new Request(`${BASE}/exports/preview?${query}`, { headers: { authorization: `Bearer ${viewer}` } }),
    );
    expect(await preview.json()).toMatchObject({
      considered: 5,
      exported: 3,
      sentence: "2 tasks excluded: 1 never validated, 1 verdict INVALID",
    });
  });
});

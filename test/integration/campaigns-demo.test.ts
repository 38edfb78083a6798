import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../helpers/database";
import { createDemoDatabase } from "../helpers/demo-database";
import { campaignReport } from "../../lib/campaigns/report";
import { DEMO_CAMPAIGN_NAME } from "../../lib/campaigns/demo-campaign";

// The demo shows a campaign in progress: three annotators, finished and unfinished tasks,
// and a disagreement waiting for adjudication.

let db: TestDatabase;
beforeAll(async () => {
  db = await createDemoDatabase();
});
afterAll(async () => db.drop());

describe("the demo campaign", () => {
  it("is in progress with three annotators and a disagreement to adjudicate", async () => {
    const campaign = await db.prisma.campaign.findUniqueOrThrow({ where: { name: DEMO_CAMPAIGN_NAME } });
    const admin = await db.prisma.user.findFirstOrThrow({ where: { role: "ADMIN" } });
    const report = await campaignReport(
      db.prisma,
      { id: admin.id, email: admin.email, name: admin.name, role: "ADMIN" },
      campaign.id,
    );
    expect(report.annotators.map((a) => a.name).sort()).toEqual([
      "Demo Annotator A",
      "Demo Annotator B",
      "Demo Curator",
    ]);
    expect(report.settings.overlap).toBe(3);
    expect(report.progress.completeTasks).toBe(2);
    expect(report.progress.labels).toBeLessThan(report.progress.labelsNeeded);
    expect(report.disagreements.length).toBeGreaterThan(0);
    expect(report.disagreements[0].outcome.dropped).toBe(true);
    expect(report.agreement.find((q) => q.key === "underspecified")!.alpha).not.toBeNull();
  });

  it("an admin who also annotates keeps the whole report, disagreements included; a plain annotator sees their own row only", async () => {
    const campaign = await db.prisma.campaign.findUniqueOrThrow({ where: { name: DEMO_CAMPAIGN_NAME } });
    const annotator = await db.prisma.user.findUniqueOrThrow({ where: { email: "annotator-a@swe-curator.local" } });
    const asAnnotator = await campaignReport(
      db.prisma,
      { id: annotator.id, email: annotator.email, name: annotator.name, role: "CURATOR" },
      campaign.id,
    );
    expect(asAnnotator.role).toBe("annotator");
    expect(asAnnotator.annotators.map((a) => a.id)).toEqual([annotator.id]);
    expect(asAnnotator.disagreements).toEqual([]);

    const admin = await db.prisma.user.findFirstOrThrow({ where: { role: "ADMIN" } });
    await db.prisma.campaignAnnotator.create({ data: { campaignId: campaign.id, userId: admin.id } });
    const asAnnotatingAdmin = await campaignReport(
      db.prisma,
      { id: admin.id, email: admin.email, name: admin.name, role: "ADMIN" },
      campaign.id,
    );
    expect(asAnnotatingAdmin.annotators.length).toBe(4);
    expect(asAnnotatingAdmin.disagreements.length).toBeGreaterThan(0);
    expect(asAnnotatingAdmin.disagreementCount).toBeGreaterThan(0);
  });
});

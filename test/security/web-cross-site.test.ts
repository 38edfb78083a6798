import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encode } from "next-auth/jwt";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createEnvironment, createTask, createUser } from "../fixtures/factories/curation";
import { PUT as putSettings } from "../../app/api/v1/settings/route";
import { POST as postDecision } from "../../app/api/v1/decisions/route";
import { GET as getTasks } from "../../app/api/v1/tasks/route";
import { getCurationSettings } from "../../lib/curation/settings";

// Issue 10, item 5: a page on another site (another port of this host, a sibling
// subdomain) posts to our API with the victim's session cookie attached by the browser.
// Issue 10, item 7: malformed cookies and impossible dates answer 4xx, never 500.

const APP = "http://localhost:3000";
let db: TestDatabase;
let adminCookie: string;
let curatorCookie: string;
let taskId: string;

const sessionCookie = async (userId: string) =>
  `next-auth.session-token=${await encode({ token: { sub: userId, sid: randomUUID() }, secret: process.env.NEXTAUTH_SECRET! })}`;

beforeAll(async () => {
  db = await createTestDatabase();
  process.env.NEXTAUTH_SECRET = "cross-site-test-secret";
  process.env.NEXTAUTH_URL = APP;
  adminCookie = await sessionCookie((await createUser(db.prisma, "ADMIN")).id);
  curatorCookie = await sessionCookie((await createUser(db.prisma, "CURATOR")).id);
  const env = await createEnvironment(db.prisma);
  taskId = (await createTask(db.prisma, env.id, { automatedVerdict: "VALID" })).id;
});
afterAll(async () => db.drop());

/** What a browser sends for a <form enctype="text/plain"> posted from another site. */
function crossSiteForm(path: string, method: string, cookie: string, body: string, origin = "http://evil.example") {
  return new Request(APP + path, {
    method,
    body,
    headers: { host: "localhost:3000", origin, "sec-fetch-site": "cross-site", "content-type": "text/plain", cookie },
  });
}

const decisionBody = (version = 1) => JSON.stringify({ taskId, verdict: "APPROVE", version });

describe("cross-site requests with a session cookie", () => {
  it("a settings PUT from http://evil.example as text/plain is refused and changes nothing", async () => {
    const before = await getCurationSettings(db.prisma);
    const response = await putSettings(
      crossSiteForm("/api/v1/settings", "PUT", adminCookie, JSON.stringify({ approvalsRequired: 7 })),
    );
    expect(response.status).toBe(403);
    expect((await response.json()).detail).toContain("another site");
    expect(await getCurationSettings(db.prisma)).toEqual(before);
  });

  it("a decision POST from a page on another port of the same host is refused and records nothing", async () => {
    const response = await postDecision(
      crossSiteForm("/api/v1/decisions", "POST", curatorCookie, decisionBody(), "http://localhost:4000"),
    );
    expect(response.status).toBe(403);
    expect(await db.prisma.curationDecision.count({ where: { taskId } })).toBe(0);
  });

  it("a same-site text/plain body is refused as the wrong type (415), and a sibling without Origin by Sec-Fetch-Site", async () => {
    const plain = crossSiteForm("/api/v1/decisions", "POST", curatorCookie, decisionBody(), APP);
    plain.headers.set("sec-fetch-site", "same-origin");
    expect((await postDecision(plain)).status).toBe(415);
    const sibling = new Request(APP + "/api/v1/decisions", {
      method: "POST",
      body: decisionBody(),
      headers: {
        host: "localhost:3000",
        "sec-fetch-site": "same-site",
        "content-type": "application/json",
        cookie: curatorCookie,
      },
    });
    expect((await postDecision(sibling)).status).toBe(403);
    expect(await db.prisma.curationDecision.count({ where: { taskId } })).toBe(0);
  });

  it("our own page's JSON request still works", async () => {
    const own = new Request(APP + "/api/v1/decisions", {
      method: "POST",
      body: decisionBody(),
      headers: {
        host: "localhost:3000",
        origin: APP,
        "sec-fetch-site": "same-origin",
        "content-type": "application/json",
        cookie: curatorCookie,
      },
    });
    const response = await postDecision(own);
    expect(response.status).toBe(201);
    expect(await db.prisma.curationDecision.count({ where: { taskId } })).toBe(1);
  });
});

describe("malformed input answers 4xx with a message, never 500", () => {
  it("a malformed percent-encoded cookie beside a valid session neither breaks the request nor the session", async () => {
    const request = new Request(APP + "/api/v1/tasks", {
      headers: { cookie: `theme=%E0%A4%A; ${curatorCookie}; other=%` },
    });
    const response = await getTasks(request);
    expect(response.status).toBe(200);
  });

  it("a malformed session cookie itself reads as signed out (401)", async () => {
    const response = await getTasks(
      new Request(APP + "/api/v1/tasks", { headers: { cookie: "next-auth.session-token=%E0%A4%A" } }),
    );
    expect(response.status).toBe(401);
  });

  it.each(["2026-02-31", "2025-02-29", "0000-01-01", "2026-13-01"])(
    "createdFrom=%s is a 400 naming the field",
    async (day) => {
      const response = await getTasks(
        new Request(`${APP}/api/v1/tasks?createdFrom=${day}`, { headers: { cookie: curatorCookie } }),
      );
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain("createdFrom");
    },
  );
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { createApiToken } from "@/lib/auth/api-tokens";
import type { DemoTask } from "@/lib/environments/load-demo-environments";
import * as runsRoute from "@/app/api/v1/runs/route";
import * as buildsRoute from "@/app/api/v1/builds/route";

// The builds and runs lists page like every other /api/v1 list: { items, nextCursor }, the
// cursor passed back as ?cursor=, null on the last page.

type Handler = (request: Request) => Promise<Response>;
const get = (handler: Handler, token: string, path: string) =>
  handler(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } }));

/** Follows nextCursor from the first page to the last; returns every page's items in order. */
async function allPages<T>(handler: Handler, token: string, path: string): Promise<{ pages: T[][]; items: T[] }> {
  const pages: T[][] = [];
  let cursor: string | null = null;
  do {
    const response = await get(handler, token, `${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(response.status).toBe(200);
    const page = (await response.json()) as { items: T[]; nextCursor: string | null };
    pages.push(page.items);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 20);
  return { pages, items: pages.flat() };
}

let database: TestDatabase;
let task: DemoTask;
let token: string;
let revision: { id: string; environmentId: string };
const minutesAgo = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12) - minutes * 60_000);

beforeAll(async () => {
  database = await createTestDatabase();
  task = (await loadDemoTasks(database.prisma))["demo__calc-1"];
  const user = await database.prisma.user.create({ data: { email: "pages@api.test", role: "VIEWER" } });
  token = (await createApiToken(database.prisma, user.id, { name: "pages" })).token;
  revision = await database.prisma.environmentRevision.findFirstOrThrow({
    where: { environment: { tasks: { some: { id: task.id } } } },
    select: { id: true, environmentId: true },
  });
});
afterAll(async () => {
  await database?.drop();
});

describe("the builds list, a page at a time", () => {
  it("lists every build once, newest first, and says a build is active even when it is on a later page", async () => {
    // seven finished builds, and the oldest one still queued (a stuck queue is still the environment's news)
    const created = [];
    for (let i = 0; i < 8; i++) {
      created.push(
        await database.prisma.build.create({
          data: { revisionId: revision.id, status: i === 7 ? "QUEUED" : "SUCCEEDED", createdAt: minutesAgo(i) },
          select: { id: true },
        }),
      );
    }
    const { pages, items } = await allPages<{ id: string }>(
      buildsRoute.GET,
      token,
      `/api/v1/builds?environmentId=${revision.environmentId}&limit=3`,
    );
    expect(pages.map((p) => p.length)).toEqual([3, 3, 2]);
    expect(items.map((b) => b.id)).toEqual(created.map((b) => b.id));

    const first = await (
      await get(buildsRoute.GET, token, `/api/v1/builds?environmentId=${revision.environmentId}&limit=3`)
    ).json();
    expect(first.items.some((b: { status: string }) => b.status === "QUEUED")).toBe(false);
    expect(first.active).toBe(true);
  });

  it("refuses a limit over the maximum with a problem naming the field", async () => {
    const response = await get(
      buildsRoute.GET,
      token,
      `/api/v1/builds?environmentId=${revision.environmentId}&limit=5000`,
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    expect(JSON.stringify(await response.json())).toContain("limit");
  });
});

describe("the validation runs list, a page of groups at a time", () => {
  it("lists every group once with all its runs, newest group first, and a retry inside a group does not move it", async () => {
    const groups: string[] = [];
    for (let g = 0; g < 5; g++) {
      const groupId = `group-${g}`;
      groups.push(groupId);
      for (const kind of ["NEGATIVE_CONTROL", "POSITIVE_CONTROL"] as const) {
        await database.prisma.validationRun.create({
          data: {
            taskId: task.id,
            revisionId: revision.id,
            kind,
            groupId,
            status: "SUCCEEDED",
            createdAt: minutesAgo(100 - g * 10),
          },
        });
      }
    }
    // the oldest group gets a later attempt: it stays where it was queued
    await database.prisma.validationRun.create({
      data: {
        taskId: task.id,
        revisionId: revision.id,
        kind: "NEGATIVE_CONTROL",
        attempt: 1,
        groupId: "group-0",
        createdAt: minutesAgo(1),
      },
    });

    const { pages, items } = await allPages<{ groupId: string; active: boolean; runs: unknown[] }>(
      runsRoute.GET,
      token,
      `/api/v1/runs?taskId=${task.id}&limit=2`,
    );
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(items.map((g) => g.groupId)).toEqual([...groups].reverse());
    expect(items.map((g) => g.runs.length)).toEqual([2, 2, 2, 2, 3]);
    expect(items.at(-1)!.active).toBe(true);
  });

  it("refuses a cursor that names no group of this task, in words", async () => {
    const response = await get(runsRoute.GET, token, `/api/v1/runs?taskId=${task.id}&cursor=not-a-group`);
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect(problem.detail).toMatch(/cursor is not valid/);
    expect(JSON.stringify(problem)).toContain("cursor");
  });
});

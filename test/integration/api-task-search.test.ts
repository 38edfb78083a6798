import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { callApi } from "../helpers/api-client";

// Searching an exact instance id lists that task first, even when other tasks match the same
// text and sort before it; the rest of the list pages on unchanged.

let db: TestDatabase;
let viewer: string;
let demoIds: string[];

beforeAll(async () => {
  db = await createTestDatabase();
  viewer = (await db.prisma.user.create({ data: { email: "search@example.test", role: "VIEWER" } })).id;
  demoIds = Object.keys(await loadDemoTasks(db.prisma));
});
afterAll(async () => db.drop());

const search = (q: string, extra = "") =>
  callApi({ userId: viewer }, "GET /tasks", { query: `q=${encodeURIComponent(q)}${extra}` });

describe("task search by instance id", () => {
  it("lists the exact instance id first for every demo task", async () => {
    const misplaced: string[] = [];
    for (const id of demoIds) {
      const page = (await search(id)).body;
      if (page.items[0]?.instanceId !== id)
        misplaced.push(`${id} → ${page.items.map((t: { instanceId: string }) => t.instanceId).join(", ")}`);
    }
    expect(misplaced).toEqual([]);
  });

  it("pages through every match exactly once with the exact one on top", async () => {
    const all: string[] = [];
    let cursor: string | null = null;
    let first = true;
    do {
      const page: { items: { instanceId: string }[]; nextCursor: string | null } = (
        await search(demoIds[0], `&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)
      ).body;
      if (first) expect(page.items[0].instanceId).toBe(demoIds[0]);
      first = false;
      all.push(...page.items.map((t) => t.instanceId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(all).size).toBe(all.length);
    const unpaged = (await search(demoIds[0], "&limit=500")).body.items.map(
      (t: { instanceId: string }) => t.instanceId,
    );
    expect([...all].sort()).toEqual([...unpaged].sort());
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { apiTokenFor, callRoute } from "../helpers/route-call";
import { defineRoute } from "../../lib/http/define-route";

// A handler gets its database, request id and log from defineRoute (no route imports the
// Prisma singleton); the id goes out on every answer and on the log lines of that request.

let db: TestDatabase;
let token: string;

beforeAll(async () => {
  db = await createTestDatabase();
  ({ token } = await apiTokenFor(db.prisma, "VIEWER"));
});
afterAll(async () => db.drop());

const countUsers = defineRoute(
  { permission: "tasks:read", summary: "test: count users" },
  async ({ db, requestId }) => ({ users: await db.user.count(), requestId }),
);
const explode = defineRoute({ permission: "tasks:read", summary: "test: fails unexpectedly" }, async () => {
  throw new Error("the disk caught fire");
});

describe("the request context defineRoute gives a handler", () => {
  it("reaches the database and names the request on the answer", async () => {
    const response = await callRoute(countUsers, token, "/api/v1/test/users");
    const body = await response.json();
    expect(body.users).toBe(await db.prisma.user.count());
    expect(response.headers.get("x-request-id")).toBe(body.requestId);
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps a proxy's X-Request-Id, but not one that could forge a log line", async () => {
    const kept = await callRoute(countUsers, token, "/api/v1/test/users", { headers: { "x-request-id": "edge-42" } });
    expect(kept.headers.get("x-request-id")).toBe("edge-42");
    const forged = await callRoute(countUsers, token, "/api/v1/test/users", {
      headers: { "x-request-id": "x] GET /admin: all good" },
    });
    expect(forged.headers.get("x-request-id")).not.toContain("all good");
  });

  it("logs an unexpected error with the request id, method and path, and answers a plain 500", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const response = await callRoute(explode, token, "/api/v1/test/explode");
      expect(response.status).toBe(500);
      const problem = await response.json();
      expect(problem.detail).not.toContain("fire");
      const requestId = response.headers.get("x-request-id");
      expect(logged).toHaveBeenCalledWith(
        `[api ${requestId}] GET /api/v1/test/explode: unexpected error`,
        expect.objectContaining({ message: "the disk caught fire" }),
      );
    } finally {
      logged.mockRestore();
    }
  });

  it("answers 401 with a request id too, before any handler runs", async () => {
    const response = await callRoute(countUsers, "swc_not-a-token", "/api/v1/test/users");
    expect(response.status).toBe(401);
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });
});

import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encode } from "next-auth/jwt";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createApiToken } from "../../lib/auth/api-tokens";
import { apiRoutes, ROOT, routeFiles } from "../helpers/api-routes";
import type { RoleName, TokenScope } from "../../lib/auth/permissions";

// The exact guard matrix: every /api/v1 route × (anonymous, each role by session cookie, a
// token of each single scope owned by an ADMIN, a VIEWER's read token) → the status expected.
// The table below is written out by hand, not derived from the routes' own guard, so a route
// that loosens its permission fails here. A row for a method a route does not export fails too.

type Row = { role: RoleName; scope: TokenScope; allowed: number };
const V = (allowed: number, scope: TokenScope = "read"): Row => ({ role: "VIEWER", scope, allowed });
const C = (allowed: number, scope: TokenScope): Row => ({ role: "CURATOR", scope, allowed });
const A = (allowed: number): Row => ({ role: "ADMIN", scope: "admin", allowed });

/** Who may call each route, with which token scope, and the status it answers then (for the fake id "does-not-exist" and an empty body). */
const MATRIX: Record<string, Row> = {
  "GET /agreement": V(200),
  "GET /analytics/funnel": V(200),
  "GET /analytics/generated-tests": V(200),
  "POST /analytics/generated-tests": C(400, "run"),
  "POST /analytics/generated-tests/{id}/promote": C(400, "curate"),
  "GET /analytics/reviewers": V(200),
  "GET /analytics/verifiability": V(200),
  "POST /builds/{id}/cancel": C(404, "run"),
  "GET /builds/{id}/log": V(404),
  "POST /builds/{id}/retry": C(404, "run"),
  "GET /builds/{id}": V(404),
  "GET /builds": V(400),
  "POST /builds": C(400, "run"),
  "POST /campaigns/{id}/adjudications": A(400),
  "GET /campaigns/{id}/export": A(404),
  "POST /campaigns/{id}/gold": A(400),
  "GET /campaigns/{id}/item": C(400, "read"),
  "POST /campaigns/{id}/labels": C(400, "curate"),
  "POST /campaigns/{id}/next": C(404, "curate"),
  "GET /campaigns/{id}": C(404, "read"),
  "GET /campaigns/rubrics": C(200, "read"),
  "POST /campaigns/rubrics": A(400),
  "GET /campaigns": C(200, "read"),
  "POST /campaigns": A(400),
  "POST /decisions": C(400, "curate"),
  "POST /decisions/{id}/undo": C(404, "curate"),
  "GET /docker": V(200),
  "POST /environments/{id}/revisions": C(400, "curate"),
  "POST /environments/{id}/repin": C(404, "curate"),
  "GET /environments/{id}": V(404),
  "GET /environments": V(200),
  "GET /exports": V(200),
  "GET /exports/preview": V(200),
  "POST /imports/{id}/cancel": C(404, "run"),
  "GET /imports/{id}": V(404),
  "GET /imports": V(200),
  "POST /imports": C(400, "run"),
  "POST /jobs/prune": A(202),
  "GET /jobs": V(200),
  "GET /me": V(200),
  "POST /me/oidc-link": V(200, "admin"),
  "POST /me/password": V(400, "admin"),
  "GET /releases/{id}/diff": V(400),
  "GET /releases/{id}/export": V(404),
  "GET /releases/{id}": V(404),
  "PATCH /releases/{id}": C(404, "curate"),
  "DELETE /releases/{id}": C(404, "curate"),
  "GET /releases": V(200),
  "POST /releases": C(400, "curate"),
  "DELETE /review/lease": C(200, "curate"),
  "GET /review/left": C(200, "read"),
  "POST /review/next": C(200, "curate"),
  "GET /reviewers/scores": V(200),
  "POST /runs/{id}/cancel": C(404, "run"),
  "GET /runs/{id}/log": V(404),
  "POST /runs/{id}/retry": C(404, "run"),
  "GET /runs/{id}": V(404),
  "GET /runs": V(400),
  "POST /runs": C(400, "run"),
  "GET /settings": V(200),
  "PUT /settings": A(200),
  "GET /tasks/{id}/base-files": V(400),
  "GET /tasks/{id}/evidence": V(404),
  "GET /tasks/{id}/history": V(404),
  "POST /tasks/{id}/override": C(400, "curate"),
  "GET /tasks/{id}": V(404),
  "PATCH /tasks/{id}": C(400, "curate"),
  "GET /tasks/assignees": C(200, "read"),
  "POST /tasks/bulk": C(400, "curate"),
  "GET /tasks/facets": V(200),
  "GET /tasks": V(200),
  "DELETE /tokens/{id}": V(404, "admin"),
  "GET /tokens": V(200, "admin"),
  "POST /tokens": V(400, "admin"),
  "GET /trajectories/{id}": V(404),
  "GET /trajectories/{id}/steps/{index}": V(404),
  "GET /trajectories/{id}/steps": V(200),
  "POST /trajectories/{id}/steps/{index}/replay": C(404, "run"),
  "GET /trajectories/{id}/replays": V(404),
  "GET /replays/{id}": V(404),
  "GET /replays/{id}/events": V(404),
  "GET /trajectories/{id}/search": V(400),
  "GET /trajectories/{id}/edits": V(400),
  "GET /trajectories/{id}/annotations": V(200),
  "POST /trajectories/{id}/annotations": C(400, "curate"),
  "GET /trajectories/labels": V(200),
  "GET /trajectories/compare": V(400),
  "GET /trajectories/compare/candidates": V(200),
  "GET /trajectories/search": V(400),
  "GET /trajectories/clusters": V(200),
  "PUT /trajectories/labels": A(400),
  "GET /trajectories/labels/steps": V(400),
  "PATCH /users/{id}": A(400),
  "POST /users/{id}/password": A(404),
  "GET /users": A(200),
  "POST /users": A(400),
  "PATCH /views/{id}": V(400),
  "DELETE /views/{id}": V(404),
  "GET /views": V(200),
  "POST /views": V(400),
  "GET /workers": V(200),
  "POST /workers/{id}/drain": A(400),
  "GET /openapi.json": V(200),
};

const RANK: Record<RoleName, number> = { VIEWER: 0, CURATOR: 1, ADMIN: 2 };
const SCOPES: TokenScope[] = ["read", "curate", "run", "admin"];
const PUBLIC_ROUTES = new Set(["app/api/auth/[...nextauth]/route.ts"]); // next-auth's own sign-in endpoints

type Caller = { name: string; headers: Record<string, string>; expect: (row: Row) => number };

let db: TestDatabase;
const callers: Caller[] = [{ name: "anonymous", headers: {}, expect: () => 401 }];

beforeAll(async () => {
  db = await createTestDatabase();
  process.env.NEXTAUTH_SECRET = "route-guard-test-secret";
  for (const role of ["VIEWER", "CURATOR", "ADMIN"] as const) {
    const user = await db.prisma.user.create({ data: { email: `${role.toLowerCase()}@example.test`, role } });
    const cookie = `next-auth.session-token=${await encode({ token: { sub: user.id, sid: randomUUID() }, secret: process.env.NEXTAUTH_SECRET })}`;
    callers.push({
      name: `${role} session`,
      headers: { cookie },
      expect: (row) => (RANK[role] >= RANK[row.role] ? row.allowed : 403),
    });
    if (role === "VIEWER") {
      const { token } = await createApiToken(db.prisma, user.id, { name: "viewer-read", scopes: ["read"] });
      callers.push({
        name: "VIEWER read token",
        headers: { authorization: `Bearer ${token}` },
        expect: (row) => (row.role === "VIEWER" && row.scope === "read" ? row.allowed : 403),
      });
    }
    if (role === "ADMIN") {
      for (const scope of SCOPES) {
        const { token } = await createApiToken(db.prisma, user.id, { name: `admin-${scope}`, scopes: [scope] });
        callers.push({
          name: `ADMIN "${scope}" token`,
          headers: { authorization: `Bearer ${token}` },
          expect: (row) => (row.scope === scope ? row.allowed : 403),
        });
      }
    }
  }
});
afterAll(async () => db.drop());

const fakeParams = () => ({ params: Promise.resolve({ id: "does-not-exist", index: "0" }) });

describe("every /api/v1 route answers each caller with the exact expected status", async () => {
  const routes = await apiRoutes();

  it("has a matrix row for each exported handler and no row for a handler that does not exist", () => {
    const exported = routes.map((r) => `${r.method} ${r.path}`).sort();
    expect(exported).toEqual(Object.keys(MATRIX).sort());
  });

  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    it(key, async () => {
      const row = MATRIX[key];
      expect(row, `${key} has no row in the matrix`).toBeDefined();
      const url = `http://localhost/api/v1${route.path.replace("{id}", "does-not-exist").replace("{index}", "0")}`;
      const body = ["POST", "PUT", "PATCH"].includes(route.method) ? "{}" : undefined;
      const seen: string[] = [];
      const expected: string[] = [];
      for (const caller of callers) {
        const request = new Request(url, {
          method: route.method,
          body,
          headers: {
            "content-type": "application/json",
            origin: "http://localhost",
            host: "localhost",
            ...caller.headers,
          },
        });
        const response = await route.handler(request, fakeParams());
        await response.body?.cancel();
        seen.push(`${caller.name} → ${response.status}`);
        expected.push(`${caller.name} → ${caller.expect(row)}`);
      }
      expect(seen).toEqual(expected);
    });
  }
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "node_modules" || name === "generated" ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

describe("nothing reaches the server around the guard", () => {
  it("every route handler outside next-auth's own is wrapped in defineRoute", async () => {
    const unguarded: string[] = [];
    for (const file of routeFiles().filter((f) => !PUBLIC_ROUTES.has(f))) {
      const mod = (await import(path.join(ROOT, file))) as Record<string, { guard?: unknown }>;
      for (const [name, value] of Object.entries(mod))
        if (/^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/.test(name) && !value.guard) unguarded.push(`${name} ${file}`);
    }
    expect(unguarded).toEqual([]);
  });

  it("the app has no server actions (mutations go through guarded route handlers)", () => {
    const offenders = [
      ...sourceFiles(path.join(ROOT, "app")),
      ...sourceFiles(path.join(ROOT, "components")),
      ...sourceFiles(path.join(ROOT, "lib")),
    ].filter((file) => /^\s*["']use server["']/m.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });
});

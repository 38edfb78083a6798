import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encode } from "next-auth/jwt";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createApiToken } from "../../lib/auth/api-tokens";
import type { GuardedHandler } from "../../lib/http/define-route";

// Walks every route handler in app/ so that a new route without the role guard, or a
// mutation a VIEWER may perform by accident, fails here.

const ROOT = path.resolve(import.meta.dirname, "../..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const MUTATIONS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const PUBLIC_ROUTES = new Set(["app/api/auth/[...nextauth]/route.ts"]); // next-auth's own sign-in endpoints

/** Mutations a VIEWER may make, each on their own things only. */
const VIEWER_MUTATIONS = new Set([
  "POST app/api/v1/tokens/route.ts", // own API tokens
  "DELETE app/api/v1/tokens/[id]/route.ts",
  "POST app/api/v1/views/route.ts", // own saved views
  "PATCH app/api/v1/views/[id]/route.ts",
  "DELETE app/api/v1/views/[id]/route.ts",
  "POST app/api/v1/exports/route.ts", // exporting reads only
  "POST app/api/v1/me/password/route.ts", // own password
  "POST app/api/v1/me/oidc-link/route.ts", // linking own single sign-on
]);

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" || name === "route.tsx" ? [path.relative(ROOT, full)] : [];
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "node_modules" || name === "generated" ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

const fakeParams = { params: Promise.resolve({ id: "does-not-exist", runId: "x", buildId: "x", environmentId: "x", taskId: "x" }) };

let db: TestDatabase;
let viewerToken: string;
let viewerCookie: string;

beforeAll(async () => {
  db = await createTestDatabase();
  const viewer = await db.prisma.user.create({ data: { email: "viewer@example.test", role: "VIEWER" } });
  viewerToken = (await createApiToken(db.prisma, viewer.id, { name: "guard-test" })).token;
  process.env.NEXTAUTH_SECRET = "route-guard-test-secret";
  viewerCookie = `next-auth.session-token=${await encode({ token: { sub: viewer.id }, secret: process.env.NEXTAUTH_SECRET })}`;
});
afterAll(async () => db.drop());

const files = routeFiles(path.join(ROOT, "app"));

describe("every route handler checks the session and role on the server", () => {
  it("finds the route handlers", () => {
    expect(files.length).toBeGreaterThan(3);
  });

  it("the app has no server actions (mutations go through guarded route handlers)", () => {
    const offenders = [...sourceFiles(path.join(ROOT, "app")), ...sourceFiles(path.join(ROOT, "components")), ...sourceFiles(path.join(ROOT, "lib"))].filter((file) =>
      /^\s*["']use server["']/m.test(readFileSync(file, "utf8")),
    );
    expect(offenders).toEqual([]);
  });

  for (const file of files.filter((f) => !PUBLIC_ROUTES.has(f))) {
    it(`${file}: 401 without a session, 403 for a VIEWER on mutations`, async () => {
      const mod = (await import(path.join(ROOT, file))) as Record<string, GuardedHandler>;
      const exported = METHODS.filter((m) => typeof mod[m] === "function");
      expect(exported.length, `${file} exports no handler`).toBeGreaterThan(0);
      for (const method of exported) {
        const handler = mod[method];
        expect(handler.guard, `${method} ${file} is not wrapped in defineRoute`).toBeDefined();
        const url = `http://localhost/${file}`;
        const body = MUTATIONS.has(method) ? JSON.stringify({}) : undefined;
        const anonymous = await handler(new Request(url, { method, body, headers: { "content-type": "application/json" } }), fakeParams);
        expect(anonymous.status, `${method} ${file} without a session`).toBe(401);

        if (!MUTATIONS.has(method)) continue;
        const key = `${method} ${file}`;
        const viewerAuth: Record<string, string>[] = [{ authorization: `Bearer ${viewerToken}` }, { cookie: viewerCookie }];
        for (const auth of viewerAuth) {
          const asViewer = await handler(new Request(url, { method, body, headers: { "content-type": "application/json", ...auth } }), fakeParams);
          if (VIEWER_MUTATIONS.has(key)) expect(asViewer.status, key).not.toBe(401);
          else expect(asViewer.status, `${key} as VIEWER`).toBe(403);
        }
      }
    });
  }
});

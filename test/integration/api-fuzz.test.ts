import fc from "fast-check";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { callApi } from "../helpers/api-client";
import { apiRoutes } from "../helpers/api-routes";

// Every /api/v1 body, fuzzed (bounded runs): wrong types, huge strings, deep nesting, NUL
// bytes, duplicate keys, not-JSON. Never a 500, never a partial write, and a refused body is a
// problem document that names the bad field.

let db: TestDatabase;
let adminId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  db = await createTestDatabase();
  adminId = (await db.prisma.user.create({ data: { email: "fuzz-admin@example.test", role: "ADMIN" } })).id;
  const task = Object.values(await loadDemoTasks(db.prisma))[0];
  const row = await db.prisma.task.findUniqueOrThrow({
    where: { id: task.id },
    select: { id: true, environmentId: true },
  });
  const target = await db.prisma.user.create({ data: { email: "fuzz-target@example.test", role: "VIEWER" } });
  const view = await db.prisma.savedView.create({
    data: { userId: adminId, name: "fuzzed", scope: "tasks", query: "" },
  });
  Object.assign(ids, { tasks: row.id, environments: row.environmentId, users: target.id, views: view.id });
});
afterAll(async () => db.drop());

/** Row counts of everything a body can write: a refused request must leave them all as they were. */
async function fingerprint() {
  const p = db.prisma;
  const counts = await Promise.all([
    p.task.count(),
    p.curationDecision.count(),
    p.auditEvent.count(),
    p.environmentRevision.count(),
    p.savedView.count(),
    p.apiToken.count(),
    p.user.count(),
    p.validationRun.count(),
    p.build.count(),
    p.idempotencyKey.count(),
  ]);
  const tasks = await p.task.findMany({
    select: { id: true, version: true, labels: true, curationStatus: true },
    orderBy: { id: "asc" },
  });
  return JSON.stringify({ counts, tasks });
}

const huge = fc.string({ minLength: 70_000, maxLength: 70_000 }).map((s) => s.repeat(2));
const nested = fc.integer({ min: 40, max: 5_000 }).map((depth) => "[".repeat(depth) + "]".repeat(depth));
const withNul = fc
  .string()
  .map((s) => JSON.stringify({ name: `a\u0000${s}`, comment: `x\u0000`, taskId: `t\u0000`, query: "\u0000" }));
const duplicateKeys = fc
  .tuple(fc.jsonValue(), fc.jsonValue())
  .map(([a, b]) => `{"name":${JSON.stringify(a)},"name":${JSON.stringify(b)},"verdict":1,"verdict":"APPROVED"}`);
const anyJson = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v));
const notJson = fc.oneof(
  fc.constant("{"),
  fc.constant("{'a': 1}"),
  fc.string({ minLength: 1 }).filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  }),
);
const hugeJson = huge.map((s) => JSON.stringify({ name: s, comment: s, justification: s, query: s, dockerfile: s }));
const bodies = fc.oneof(
  anyJson,
  notJson,
  withNul,
  duplicateKeys,
  nested.map((s) => `{"a":${s}}`),
  hugeJson,
);

type Route = Awaited<ReturnType<typeof apiRoutes>>[number];

const paramsFor = (route: Route) => {
  const resource = route.path.split("/")[1];
  return { id: ids[resource] ?? "does-not-exist", index: "0" };
};

function expectProblem(route: Route, result: { status: number; headers: Headers; body: unknown }, sent: string) {
  const label = `${route.method} ${route.path} with ${sent.slice(0, 120)}`;
  expect(result.status, `${label}: ${JSON.stringify(result.body).slice(0, 300)}`).toBeLessThan(500);
  if (result.status < 400) return;
  expect(result.headers.get("content-type"), label).toContain("application/problem+json");
  const problem = result.body as { detail: string; errors?: { field: string; detail: string }[] };
  expect(problem.detail, label).toEqual(expect.any(String));
  expect(problem.detail, label).not.toMatch(/ZodError|at .*\.ts:\d+|\[object Object\]/);
  if (result.status === 400)
    expect(
      problem.errors?.every((e) => e.field && e.detail.includes(e.field === "(the body)" ? "body" : e.field)),
      label,
    ).not.toBe(false);
}

type PropertySchema = { type?: string | string[]; enum?: unknown[]; const?: unknown };
type ObjectSchema = {
  properties?: Record<string, PropertySchema>;
  oneOf?: ObjectSchema[];
  anyOf?: ObjectSchema[];
  $ref?: string;
  $defs?: Record<string, ObjectSchema>;
};

/** A value of another JSON type than the schema's property wants. */
function wrongValueFor(property: PropertySchema): unknown {
  const type = Array.isArray(property.type) ? property.type.find((t) => t !== "null") : property.type;
  if (property.enum) return "NOT_ONE_OF_THEM";
  switch (type) {
    case "string":
      return 12345;
    case "number":
    case "integer":
      return "twelve";
    case "boolean":
      return "yes";
    case "array":
      return "not a list";
    case "object":
      return 7;
    default:
      return undefined;
  }
}

/**
 * The object shapes a route's body may take: the body itself, or each member of a union
 * (oneOf/anyOf), with the fixed values (a discriminator's const) that pick that member.
 */
function bodyShapes(route: Route): { pick: Record<string, unknown>; properties: Record<string, PropertySchema> }[] {
  const document = z.toJSONSchema(route.handler.spec.body!, { io: "input", unrepresentable: "any" }) as ObjectSchema;
  // a schema with an id (.meta({ id })) comes as a reference to its definition
  const schema = document.$ref ? document.$defs![document.$ref.replace("#/$defs/", "")] : document;
  const members = [schema, ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].filter((member) => member.properties);
  return members.map((member) => {
    const fixed = Object.entries(member.properties!).filter(([, property]) => property.const !== undefined);
    return {
      pick: Object.fromEntries(fixed.map(([field, property]) => [field, property.const])),
      properties: member.properties!,
    };
  });
}

describe("fuzzed API bodies", async () => {
  const routes = (await apiRoutes()).filter((r) => r.handler.spec.body);

  it("covers every route that takes a JSON body", () => {
    expect(routes.length).toBeGreaterThan(15);
  });

  for (const route of routes) {
    it(`${route.method} ${route.path}: no 500, nothing half-written, a readable problem`, async () => {
      await fc.assert(
        fc.asyncProperty(bodies, async (body) => {
          const before = await fingerprint();
          const result = await callApi({ userId: adminId }, `${route.method} ${route.path}`, {
            params: paramsFor(route),
            body,
            headers: { "content-type": "application/json" },
          });
          expectProblem(route, result, body);
          if (result.status >= 400)
            expect(await fingerprint(), `${route.method} ${route.path} wrote despite ${result.status}`).toBe(before);
        }),
        { numRuns: 12, seed: 11 },
      );
    });

    it(`${route.method} ${route.path}: a field of the wrong type is named`, async () => {
      let cases = 0;
      for (const { pick, properties } of bodyShapes(route)) {
        for (const [field, property] of Object.entries(properties)) {
          const wrong = wrongValueFor(property);
          if (wrong === undefined || field in pick) continue;
          const body = { ...pick, [field]: wrong };
          const before = await fingerprint();
          const result = await callApi({ userId: adminId }, `${route.method} ${route.path}`, {
            params: paramsFor(route),
            body,
          });
          expect(result.status, `${JSON.stringify(body)}: ${JSON.stringify(result.body)}`).toBe(400);
          expect(
            result.body.errors.map((e: { field: string }) => e.field),
            `${route.path} ${JSON.stringify(body)}`,
          ).toContain(field);
          expect(await fingerprint()).toBe(before);
          cases++;
        }
      }
      // a body schema this loop cannot read (a union it does not open, say) must not pass by trying nothing
      expect(cases, `no field of ${route.method} ${route.path}'s body was tried`).toBeGreaterThan(0);
    });
  }
});

import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { createApiToken } from "../../lib/auth/api-tokens";
import { importFile } from "../../lib/imports/import-file";
import { API_ROUTE_MODULES, loadApiRoutes } from "../../app/api/v1/api-routes";
import { apiPathOf, apiRoutes, ROOT, routeFiles } from "../helpers/api-routes";
import type { ApiRouteTable } from "../../lib/http/openapi";

// The OpenAPI document lists every route and method, and what the routes really answer
// (successes on real data, and problem documents) validates against the document's schemas.

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
  components: { schemas: Record<string, object> };
};

let db: TestDatabase;
let admin: string;
let doc: Doc;
let routes: ApiRouteTable;
let ids: { taskId: string; taskVersion: number; environmentId: string; trajectoryId: string | null; userId: string };
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

beforeAll(async () => {
  db = await createTestDatabase();
  const user = await db.prisma.user.create({ data: { email: "admin@example.test", role: "ADMIN" } });
  admin = (await createApiToken(db.prisma, user.id, { name: "openapi" })).token;
  const tasks = await loadDemoTasks(db.prisma);
  const task = Object.values(tasks)[0];
  await importFile(db.prisma, path.join(ROOT, "test/fixtures/swe-agent/pydicom__pydicom-1458.traj"));
  const trajectory = await db.prisma.trajectory.findFirst({ select: { id: true } });
  const environment = await db.prisma.task.findUniqueOrThrow({
    where: { id: task.id },
    select: { environmentId: true, version: true },
  });
  ids = {
    taskId: task.id,
    taskVersion: environment.version,
    environmentId: environment.environmentId,
    trajectoryId: trajectory?.id ?? null,
    userId: user.id,
  };
  routes = await loadApiRoutes();
  const response = await routes["/openapi.json"].GET!(
    new Request("http://localhost/api/v1/openapi.json", { headers: { authorization: `Bearer ${admin}` } }),
  );
  expect(response.status).toBe(200);
  doc = (await response.json()) as Doc;
  ajv.addSchema({ $id: "doc", components: doc.components });
});
afterAll(async () => db.drop());

async function call(method: string, apiPath: string, init: { params?: Record<string, string>; body?: unknown } = {}) {
  const template = apiPath.split("?")[0];
  const concrete = template.replace(/\{(\w+)\}/g, (_m, name: string) => init.params?.[name] ?? "x");
  const handler = routes[template]?.[method as "GET"];
  if (!handler) throw new Error(`no ${method} ${template}`);
  const query = apiPath.includes("?") ? apiPath.slice(apiPath.indexOf("?")) : "";
  const request = new Request(`http://localhost/api/v1${concrete}${query}`, {
    method,
    headers: {
      authorization: `Bearer ${admin}`,
      "content-type": "application/json",
      origin: "http://localhost",
      host: "localhost",
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const response = await handler(request, { params: Promise.resolve(init.params ?? {}) });
  const text = await response.text();
  return {
    template,
    method,
    status: response.status,
    type: response.headers.get("content-type") ?? "",
    body: text ? JSON.parse(text) : null,
  };
}

function schemaFor(template: string, method: string, status: number, type: string) {
  const operation = doc.paths[template]?.[method.toLowerCase()];
  const declared = operation?.responses[String(status)];
  expect(declared, `${method} ${template} answered ${status}, which the document does not declare`).toBeDefined();
  const media = type.split(";")[0];
  const schema = declared!.content?.[media]?.schema;
  expect(
    schema,
    `${method} ${template} ${status} answered ${media}, which the document does not declare`,
  ).toBeDefined();
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
}

async function expectMatches(result: Awaited<ReturnType<typeof call>>) {
  const validate = ajv.compile(schemaFor(result.template, result.method, result.status, result.type));
  const ok = validate(result.body);
  expect(ok, `${result.method} ${result.template} ${result.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 and its schemas compile", () => {
    expect(doc.openapi).toBe("3.1.0");
    for (const name of Object.keys(doc.components.schemas))
      expect(() => ajv.compile({ $ref: `doc#/components/schemas/${name}` }), name).not.toThrow();
  });

  it("lists every route file under app/api/v1, with every method it exports", async () => {
    const onDisk = routeFiles(path.join(ROOT, "app/api/v1")).map(apiPathOf).sort();
    expect(Object.keys(API_ROUTE_MODULES).sort()).toEqual(onDisk);
    const documented = Object.entries(doc.paths)
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(documented).toEqual((await apiRoutes()).map((r) => `${r.method} ${r.path}`).sort());
  });

  it("declares the Idempotency-Key header on the POSTs that create", () => {
    const decisions = doc.paths["/decisions"].post as unknown as { parameters: { name: string }[] };
    expect(decisions.parameters.map((p) => p.name)).toContain("Idempotency-Key");
  });
});

describe("real answers match the document", () => {
  it("reads: lists, one of each thing, the caller", async () => {
    const reads = [
      call("GET", "/me"),
      call("GET", "/tasks?limit=2"),
      call("GET", "/tasks/facets"),
      call("GET", "/tasks/{id}", { params: { id: ids.taskId } }),
      call("GET", "/tasks/{id}/history", { params: { id: ids.taskId } }),
      call("GET", "/tasks/{id}/evidence", { params: { id: ids.taskId } }),
      call("GET", "/tasks/assignees"),
      call("GET", "/environments?limit=1"),
      call("GET", "/environments/{id}", { params: { id: ids.environmentId } }),
      call("GET", `/builds?environmentId=${ids.environmentId}`),
      call("GET", `/runs?taskId=${ids.taskId}`),
      call("GET", "/imports"),
      call("GET", "/views"),
      call("GET", "/users"),
      call("GET", "/tokens"),
      call("GET", "/workers"),
      call("GET", "/settings"),
      call("GET", "/agreement"),
      call("GET", "/reviewers/scores"),
    ];
    expect(ids.trajectoryId, "the SWE-agent fixture imported a trajectory").not.toBeNull();
    const trajectory = { id: ids.trajectoryId! };
    reads.push(call("GET", "/trajectories/{id}", { params: trajectory }));
    reads.push(call("GET", "/trajectories/{id}/steps?limit=2", { params: trajectory }));
    reads.push(call("GET", "/trajectories/{id}/steps/{index}", { params: { ...trajectory, index: "0" } }));
    for (const result of await Promise.all(reads)) {
      expect(result.status, `${result.template}: ${JSON.stringify(result.body)}`).toBe(200);
      await expectMatches(result);
    }
  });

  it("creates: a view, a token, a user, a decision", async () => {
    const results = [
      await call("POST", "/views", { body: { name: "mine", scope: "tasks", query: "status=NEEDS_REVIEW" } }),
      await call("POST", "/tokens", { body: { name: "ci", scopes: ["read"] } }),
      await call("POST", "/users", {
        body: { email: "new@example.test", role: "VIEWER", password: "a-long-password-1" },
      }),
      await call("POST", "/decisions", {
        body: {
          taskId: ids.taskId,
          verdict: "NEEDS_CHANGES",
          reasons: ["OTHER"],
          comment: "needs a clearer issue text",
          version: ids.taskVersion,
        },
      }),
    ];
    for (const result of results) {
      expect(result.status, `${result.template}: ${JSON.stringify(result.body)}`).toBe(201);
      await expectMatches(result);
    }
  });

  it("errors are problem documents naming the bad field", async () => {
    const results = [
      await call("POST", "/decisions", { body: { taskId: 42 } }),
      await call("GET", "/tasks?limit=huge"),
      await call("GET", "/tasks/{id}", { params: { id: "missing" } }),
    ];
    expect(results.map((r) => r.status)).toEqual([400, 400, 404]);
    for (const result of results) {
      expect(result.type).toContain("application/problem+json");
      await expectMatches(result);
    }
    expect(results[0].body.errors.map((e: { field: string }) => e.field)).toContain("taskId");
    expect(results[1].body.errors[0]).toMatchObject({ field: "limit", in: "query" });
  });
});

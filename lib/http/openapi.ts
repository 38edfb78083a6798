import { z, type ZodType } from "zod";
import type { GuardedHandler, RouteSpec } from "./define-route";
import { PERMISSIONS, requiredScope, type Permission, type RoleName } from "../auth/permissions";
import { ProblemSchema, PROBLEM_CONTENT_TYPE } from "./problem";

// The OpenAPI 3.1 document of /api/v1, generated from the zod schemas the routes validate
// with (their RouteSpec). OpenAPI 3.1 speaks JSON Schema 2020-12, which zod 4 emits itself
// (z.toJSONSchema), so no converter library sits between the routes and the document.

type JsonSchema = Record<string, unknown>;
const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type ApiRouteTable = Record<string, Partial<Record<(typeof HTTP_METHODS)[number], GuardedHandler>>>;

const REF_PREFIX = "#/components/schemas/";

class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  /** JSON Schema of a zod schema; named parts (.meta({ id })) go to components and are referenced. */
  convert(schema: ZodType, io: "input" | "output"): JsonSchema {
    const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema & {
      $defs?: Record<string, JsonSchema>;
    };
    const relinked = JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', `"${REF_PREFIX}`)) as JsonSchema & {
      $defs?: Record<string, JsonSchema>;
    };
    for (const [name, def] of Object.entries(relinked.$defs ?? {}))
      this.components[io === "input" ? `${name}Input` : name] ??= def;
    delete relinked.$defs;
    delete relinked.$schema;
    if (io === "input")
      return JSON.parse(
        JSON.stringify(relinked).replace(/"#\/components\/schemas\/([^"]+)"/g, `"${REF_PREFIX}$1Input"`),
      ) as JsonSchema;
    return relinked;
  }
}

function parameters(collector: SchemaCollector, spec: RouteSpec) {
  const list: JsonSchema[] = [];
  for (const [where, schema] of [
    ["path", spec.params],
    ["query", spec.query],
  ] as const) {
    if (!schema) continue;
    const json = collector.convert(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = property as JsonSchema & { description?: string };
      list.push({
        name,
        in: where,
        required: where === "path" || !!json.required?.includes(name),
        schema: rest,
        ...(description ? { description } : {}),
      });
    }
  }
  if (spec.idempotent) {
    list.push({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      schema: { type: "string", minLength: 1, maxLength: 255 },
      description: "a retry with the same key replays the first answer instead of creating twice",
    });
  }
  return list;
}

const problemRef = { content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: `${REF_PREFIX}Problem` } } } };

function errorResponses(spec: RouteSpec, method: string) {
  const responses: Record<string, JsonSchema> = {
    "401": { description: "no session or token, or the token is unknown, revoked or expired", ...problemRef },
    "403": {
      description: `below the role, or a token without the "${requiredScope(spec.permission, method)}" scope`,
      ...problemRef,
    },
  };
  if (spec.params || spec.query || spec.body)
    responses["400"] = {
      description: "a parameter or the body is not valid (errors[] names each field)",
      ...problemRef,
    };
  if (spec.params) responses["404"] = { description: "not found", ...problemRef };
  if (spec.body) {
    responses["413"] = { description: "body over 1 MiB", ...problemRef };
    responses["415"] = { description: "body not sent as application/json", ...problemRef };
  }
  if (spec.idempotent)
    responses["409"] = {
      description: "conflict, or a request with this Idempotency-Key is still running",
      ...problemRef,
    };
  if (spec.body || spec.idempotent)
    responses["422"] = { description: "the request cannot be carried out as asked (see detail)", ...problemRef };
  return responses;
}

function operation(collector: SchemaCollector, path: string, method: string, spec: RouteSpec) {
  const success = String(spec.status ?? 200);
  const content = spec.produces
    ? { [spec.produces]: { schema: { type: "string" } } }
    : { "application/json": { schema: spec.response ? collector.convert(spec.response, "output") : {} } };
  const op: JsonSchema = {
    operationId: `${method.toLowerCase()}${path.replace(/\{(\w+)\}/g, "By-$1").replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    summary: spec.summary,
    tags: [path.split("/")[1]],
    security: [{ bearer: [requiredScope(spec.permission, method)] }, { session: [] }],
    "x-permission": spec.permission satisfies Permission,
    parameters: parameters(collector, spec),
    responses: { [success]: { description: spec.summary, content }, ...errorResponses(spec, method) },
  };
  if (spec.description) op.description = spec.description;
  if (spec.body)
    op.requestBody = {
      required: false,
      content: { "application/json": { schema: collector.convert(spec.body, "input") } },
    };
  if (spec.consumes)
    op.requestBody = {
      required: true,
      content: { [spec.consumes]: { schema: { type: "string", contentMediaType: spec.consumes } } },
    };
  return op;
}

export function buildOpenApiDocument(routes: ApiRouteTable, version: string) {
  const collector = new SchemaCollector();
  collector.convert(ProblemSchema, "output");
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [path, methods] of Object.entries(routes).sort(([a], [b]) => a.localeCompare(b))) {
    for (const method of HTTP_METHODS) {
      const handler = methods[method];
      if (typeof handler !== "function" || !handler.spec) continue;
      (paths[path] ??= {})[method.toLowerCase()] = operation(collector, path, method, handler.spec);
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "SWE Curator API",
      version,
      description:
        "Curate SWE-bench-style tasks over HTTP. Authenticate with `Authorization: Bearer swc_…` (Settings → API tokens); a token does what its scopes (read, curate, run, admin) and its owner's role both allow. Errors are RFC 9457 problem documents; lists answer `{ items, nextCursor }` (pass `cursor`); creating POSTs accept `Idempotency-Key`.",
    },
    servers: [{ url: "/api/v1" }],
    paths,
    components: {
      schemas: collector.components,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "an API token; its scopes are listed per operation" },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "next-auth.session-token",
          description: "the browser session of a signed-in user",
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

/** One operation of the document as the API reference page lists it. */
export type ApiOperation = { method: string; path: string; summary: string; permission: Permission; role: RoleName };

/** Every operation of the document, in path order: the API reference's index of routes. */
export function apiOperations(document: OpenApiDocument): ApiOperation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const permission = op["x-permission"] as Permission;
      return {
        method: method.toUpperCase(),
        path,
        summary: String(op.summary),
        permission,
        role: PERMISSIONS[permission],
      };
    }),
  );
}

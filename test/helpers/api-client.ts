import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { loadApiRoutes } from "../../app/api/v1/api-routes";
import type { ApiRouteTable } from "../../lib/http/openapi";

// Calls /api/v1 route handlers in-process, as a bearer token or a session cookie would.

export type Auth = { token: string } | { userId: string } | null;

export async function sessionCookie(userId: string) {
  process.env.NEXTAUTH_SECRET ??= "api-test-secret";
  return `next-auth.session-token=${await encode({ token: { sub: userId, sid: randomUUID() }, secret: process.env.NEXTAUTH_SECRET })}`;
}

let table: ApiRouteTable | undefined;

/** `call(auth, "POST /decisions", { body })`; path parameters are filled from `params`. */
export async function callApi(
  auth: Auth,
  route: string,
  init: { params?: Record<string, string>; query?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  table ??= await loadApiRoutes();
  const [method, template] = route.split(" ") as ["GET", string];
  const handler = table[template]?.[method];
  if (!handler) throw new Error(`no route ${route}`);
  const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(init.params?.[name] ?? ""));
  const headers: Record<string, string> = { origin: "http://localhost", host: "localhost", ...init.headers };
  if (auth && "token" in auth) headers.authorization = `Bearer ${auth.token}`;
  if (auth && "userId" in auth) headers.cookie = await sessionCookie(auth.userId);
  if (init.body !== undefined) headers["content-type"] ??= "application/json";
  const request = new Request(`http://localhost/api/v1${path}${init.query ? `?${init.query}` : ""}`, {
    method,
    headers,
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });
  const response = await handler(request, { params: Promise.resolve(init.params ?? {}) });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, headers: response.headers, body: json as any };
}

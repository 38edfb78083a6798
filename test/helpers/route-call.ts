import { createApiToken } from "../../lib/auth/api-tokens";
import type { PrismaClient } from "../../lib/db/client";

export type RouteHandler = (request: Request, context?: { params?: Promise<unknown> }) => Promise<Response>;

/** Calls a Next route handler as the web server would, with an API token. */
export function callRoute(
  handler: RouteHandler,
  token: string,
  path: string,
  options: { method?: string; body?: unknown; params?: Record<string, string>; headers?: Record<string, string> } = {},
) {
  const request = new Request(`http://localhost${path}`, {
    method: options.method ?? "GET",
    headers: {
      authorization: `Bearer ${token}`,
      ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
      ...options.headers,
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  return handler(request, { params: Promise.resolve(options.params ?? {}) });
}

/** A user of that role and an API token for it. */
export async function apiTokenFor(db: PrismaClient, role: "ADMIN" | "CURATOR" | "VIEWER") {
  const user = await db.user.create({ data: { email: `${role.toLowerCase()}-${Date.now()}@fault.test`, role } });
  return { user, token: (await createApiToken(db, user.id, { name: "fault test" })).token };
}

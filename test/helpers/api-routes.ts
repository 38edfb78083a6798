import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { GuardedHandler } from "../../lib/http/define-route";

// Every route file under app/, found on disk, so a new route cannot hide from the guard
// matrix or the OpenAPI check.

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

export function routeFiles(dir = path.join(ROOT, "app")): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" || name === "route.tsx" ? [path.relative(ROOT, full)] : [];
  });
}

/** app/api/v1/tasks/[id]/route.ts → /tasks/{id} (the OpenAPI path, relative to /api/v1). */
export const apiPathOf = (file: string) =>
  "/" +
  path
    .dirname(file)
    .replace(/^app\/api\/v1\/?/, "")
    .replace(/\[([^\]]+)\]/g, "{$1}");

export type RouteModule = Partial<Record<(typeof METHODS)[number], GuardedHandler>>;

export async function apiRoutes() {
  const routes: { file: string; path: string; method: (typeof METHODS)[number]; handler: GuardedHandler }[] = [];
  for (const file of routeFiles(path.join(ROOT, "app/api/v1"))) {
    const mod = (await import(path.join(ROOT, file))) as RouteModule;
    for (const method of METHODS)
      if (typeof mod[method] === "function")
        routes.push({ file, path: apiPathOf(file), method, handler: mod[method]! });
  }
  return routes;
}

// Every /api/v1 route module by its OpenAPI path. The OpenAPI document is built from this
// table; test/integration/api-openapi.test.ts fails when a route file on disk is missing here.
// (Imports are lazy: the document's own route is in the table too.)
import { buildOpenApiDocument, type ApiRouteTable, type OpenApiDocument } from "@/lib/http/openapi";
import packageJson from "@/package.json";

type Loader = () => Promise<ApiRouteTable[string]>;

export const API_ROUTE_MODULES: Record<string, Loader> = {
  "/agreement": () => import("./agreement/route"),
  "/analytics/funnel": () => import("./analytics/funnel/route"),
  "/analytics/generated-tests": () => import("./analytics/generated-tests/route"),
  "/analytics/generated-tests/{id}/promote": () => import("./analytics/generated-tests/[id]/promote/route"),
  "/analytics/reviewers": () => import("./analytics/reviewers/route"),
  "/analytics/verifiability": () => import("./analytics/verifiability/route"),
  "/builds/{id}/cancel": () => import("./builds/[id]/cancel/route"),
  "/builds/{id}/log": () => import("./builds/[id]/log/route"),
  "/builds/{id}/retry": () => import("./builds/[id]/retry/route"),
  "/builds/{id}": () => import("./builds/[id]/route"),
  "/builds": () => import("./builds/route"),
  "/campaigns/{id}/adjudications": () => import("./campaigns/[id]/adjudications/route"),
  "/campaigns/{id}/export": () => import("./campaigns/[id]/export/route"),
  "/campaigns/{id}/gold": () => import("./campaigns/[id]/gold/route"),
  "/campaigns/{id}/item": () => import("./campaigns/[id]/item/route"),
  "/campaigns/{id}/labels": () => import("./campaigns/[id]/labels/route"),
  "/campaigns/{id}/next": () => import("./campaigns/[id]/next/route"),
  "/campaigns/{id}": () => import("./campaigns/[id]/route"),
  "/campaigns/rubrics": () => import("./campaigns/rubrics/route"),
  "/campaigns": () => import("./campaigns/route"),
  "/decisions": () => import("./decisions/route"),
  "/decisions/{id}/undo": () => import("./decisions/[id]/undo/route"),
  "/docker": () => import("./docker/route"),
  "/environments/{id}/revisions": () => import("./environments/[id]/revisions/route"),
  "/environments/{id}/repin": () => import("./environments/[id]/repin/route"),
  "/environments/{id}": () => import("./environments/[id]/route"),
  "/environments": () => import("./environments/route"),
  "/exports": () => import("./exports/route"),
  "/exports/preview": () => import("./exports/preview/route"),
  "/imports/{id}/cancel": () => import("./imports/[id]/cancel/route"),
  "/imports/{id}": () => import("./imports/[id]/route"),
  "/imports": () => import("./imports/route"),
  "/jobs/prune": () => import("./jobs/prune/route"),
  "/jobs": () => import("./jobs/route"),
  "/me": () => import("./me/route"),
  "/me/oidc-link": () => import("./me/oidc-link/route"),
  "/me/password": () => import("./me/password/route"),
  "/openapi.json": () => import("./openapi.json/route"),
  "/releases/{id}/diff": () => import("./releases/[id]/diff/route"),
  "/releases/{id}/export": () => import("./releases/[id]/export/route"),
  "/releases/{id}": () => import("./releases/[id]/route"),
  "/releases": () => import("./releases/route"),
  "/review/lease": () => import("./review/lease/route"),
  "/review/left": () => import("./review/left/route"),
  "/review/next": () => import("./review/next/route"),
  "/reviewers/scores": () => import("./reviewers/scores/route"),
  "/runs/{id}/cancel": () => import("./runs/[id]/cancel/route"),
  "/runs/{id}/log": () => import("./runs/[id]/log/route"),
  "/runs/{id}/retry": () => import("./runs/[id]/retry/route"),
  "/runs/{id}": () => import("./runs/[id]/route"),
  "/runs": () => import("./runs/route"),
  "/settings": () => import("./settings/route"),
  "/tasks/{id}/base-files": () => import("./tasks/[id]/base-files/route"),
  "/tasks/{id}/evidence": () => import("./tasks/[id]/evidence/route"),
  "/tasks/{id}/history": () => import("./tasks/[id]/history/route"),
  "/tasks/{id}/override": () => import("./tasks/[id]/override/route"),
  "/tasks/{id}": () => import("./tasks/[id]/route"),
  "/tasks/assignees": () => import("./tasks/assignees/route"),
  "/tasks/bulk": () => import("./tasks/bulk/route"),
  "/tasks/facets": () => import("./tasks/facets/route"),
  "/tasks": () => import("./tasks/route"),
  "/tokens/{id}": () => import("./tokens/[id]/route"),
  "/tokens": () => import("./tokens/route"),
  "/trajectories/{id}": () => import("./trajectories/[id]/route"),
  "/trajectories/{id}/steps/{index}": () => import("./trajectories/[id]/steps/[index]/route"),
  "/trajectories/{id}/steps": () => import("./trajectories/[id]/steps/route"),
  "/trajectories/{id}/steps/{index}/replay": () => import("./trajectories/[id]/steps/[index]/replay/route"),
  "/trajectories/{id}/replays": () => import("./trajectories/[id]/replays/route"),
  "/replays/{id}": () => import("./replays/[id]/route"),
  "/replays/{id}/events": () => import("./replays/[id]/events/route"),
  "/trajectories/{id}/search": () => import("./trajectories/[id]/search/route"),
  "/trajectories/{id}/edits": () => import("./trajectories/[id]/edits/route"),
  "/trajectories/{id}/annotations": () => import("./trajectories/[id]/annotations/route"),
  "/trajectories/labels": () => import("./trajectories/labels/route"),
  "/trajectories/compare": () => import("./trajectories/compare/route"),
  "/trajectories/compare/candidates": () => import("./trajectories/compare/candidates/route"),
  "/trajectories/labels/steps": () => import("./trajectories/labels/steps/route"),
  "/trajectories/search": () => import("./trajectories/search/route"),
  "/trajectories/clusters": () => import("./trajectories/clusters/route"),
  "/users/{id}": () => import("./users/[id]/route"),
  "/users/{id}/password": () => import("./users/[id]/password/route"),
  "/users": () => import("./users/route"),
  "/views/{id}": () => import("./views/[id]/route"),
  "/views": () => import("./views/route"),
  "/workers": () => import("./workers/route"),
  "/workers/{id}/drain": () => import("./workers/[id]/drain/route"),
};

export async function loadApiRoutes(): Promise<ApiRouteTable> {
  const entries = await Promise.all(
    Object.entries(API_ROUTE_MODULES).map(async ([path, load]) => [path, await load()] as const),
  );
  return Object.fromEntries(entries);
}

let document: Promise<OpenApiDocument> | undefined;

/** This API's OpenAPI document, built once per process: what GET /api/v1/openapi.json answers and the API reference page lists. */
export function openApiDocument(): Promise<OpenApiDocument> {
  document ??= loadApiRoutes()
    .then((routes) => buildOpenApiDocument(routes, packageJson.version))
    .catch((error: unknown) => {
      document = undefined; // the next request tries again
      throw error;
    });
  return document;
}

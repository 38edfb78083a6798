import { beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "../helpers/route-call";
import { API_ROUTE_MODULES, openApiDocument } from "../../app/api/v1/api-routes";
import { CANARY, STEP_LABEL, judge, withBlindWorld, type Person } from "./blind-seed";

// Every GET route of the OpenAPI document, walked as a blind annotator, with path and query
// parameters filled with ids of hidden and visible things. Three checks on every answer:
//  - no text that blindness hides (each holds CANARY) appears;
//  - no hidden task's id or instance id appears, except in an answer to a request that named
//    the task or one of its things (a task page or trajectory that the annotator opened by id);
//  - the answer does not change when everything blindness hides changes (the verdict, the
//    override, which candidates resolved, the runs' classes and logs, the decisions, the
//    audit trail's verdicts): a count, a rate or a list that moved would tell it. A route is
//    called twice under the same judgement first, so what moves by itself (a time, the Docker
//    engine's state) is told apart.
// The same walk as a curator who is not blind must find those changes, or the walk proves nothing.

type Answer = { status: number; text: string; flat: Map<string, string> };
type Call = { key: string; path: string; url: string; params: Record<string, string> };

const blind = withBlindWorld();

/** Values for a query parameter a route requires, by name; a new required parameter must be added here. */
function requiredQueryValues(name: string): string[] {
  const values: Record<string, string[]> = {
    taskId: blind.world.pools.tasks,
    environmentId: blind.world.pools.environments,
    a: blind.world.pools.trajectories,
    b: [blind.world.hidden.trajectoryId, blind.world.visible.trajectoryId],
    label: [STEP_LABEL],
    path: ["w.py"],
    q: ["resize"],
    upTo: ["1"],
    from: blind.world.pools.releases,
  };
  if (!values[name])
    throw new Error(
      `The blind walk has no value for the required query parameter "${name}"; add ids of hidden and visible things for it to requiredQueryValues`,
    );
  return values[name];
}

/** Optional queries that read hidden things another way: by verdict, by the hidden repository, split by a dimension. */
const EXTRA_QUERIES: Record<string, string[]> = {
  "/tasks": ["verdict=INVALID", "verdict=VALID", "repository=acme/blindfold", "sort=updated_desc"],
  "/tasks/facets": ["repository=acme/blindfold", "verdict=INVALID"],
  "/exports": ["query=verdict%3DINVALID", "query=verdict%3DVALID", "query=repository%3Dacme%2Fblindfold"],
  "/analytics/funnel": ["by=repository", "repository=acme/blindfold"],
  "/analytics/reviewers": ["by=reviewer,generator"],
  "/agreement": ["since=2000-01-01"],
};

type Operation = { parameters?: { name: string; in: string; required: boolean }[] };

const combinations = (lists: [string, string[]][]): Record<string, string>[] =>
  lists.reduce<Record<string, string>[]>(
    (acc, [name, values]) => acc.flatMap((partial) => values.map((value) => ({ ...partial, [name]: value }))),
    [{}],
  );

/** Every GET request of the walk: each route of the document with its path parameters from the pool its first segment names (or every id). */
async function walk(): Promise<Call[]> {
  const doc = (await openApiDocument()) as unknown as { paths: Record<string, Record<string, Operation>> };
  const everyId = [...new Set(Object.values(blind.world.pools).flat())];
  const calls: Call[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    const get = operations.get;
    if (!get) continue;
    const parameters = get.parameters ?? [];
    const segment = path.split("/")[1];
    const pathParams = parameters
      .filter((p) => p.in === "path")
      .map((p): [string, string[]] => [p.name, p.name === "index" ? ["0"] : (blind.world.pools[segment] ?? everyId)]);
    const required = parameters
      .filter((p) => p.in === "query" && p.required)
      .map((p): [string, string[]] => [p.name, requiredQueryValues(p.name)]);
    for (const params of combinations(pathParams)) {
      const concrete = Object.entries(params).reduce(
        (p, [name, value]) => p.replace(`{${name}}`, encodeURIComponent(value)),
        path,
      );
      const queries = [
        ...combinations(required).map((q) => new URLSearchParams(q).toString()),
        ...(EXTRA_QUERIES[path] ?? []),
      ];
      for (const query of required.length ? queries : ["", ...queries]) {
        const url = `/api/v1${concrete}${query ? `?${query}` : ""}`;
        calls.push({ key: url, path, url, params });
      }
    }
  }
  return calls;
}

function flatten(value: unknown, prefix = "$", into = new Map<string, string>()): Map<string, string> {
  if (value && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) flatten(child, `${prefix}.${key}`, into);
  } else into.set(prefix, JSON.stringify(value));
  return into;
}

/** An answer's text, read to its end (a live log ends with its run), and its values by JSON path (lines for other text). */
async function answer(call: Call, who: Person): Promise<Answer> {
  const handler = (await API_ROUTE_MODULES[call.path]()).GET!;
  const response = await callRoute(handler, who.token, call.url, { params: call.params });
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  let parsed: unknown;
  if (type.includes("json") && !type.includes("ndjson")) parsed = JSON.parse(text);
  else if (type.includes("ndjson"))
    parsed = text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  else parsed = text.split("\n");
  return { status: response.status, text, flat: flatten(parsed) };
}

async function answers(calls: Call[], who: Person) {
  const result = new Map<string, Answer>();
  for (const call of calls) result.set(call.key, await answer(call, who));
  return result;
}

const differing = (a: Answer, b: Answer) => {
  const paths = new Set([...a.flat.keys(), ...b.flat.keys()]);
  const changed = [...paths].filter((p) => a.flat.get(p) !== b.flat.get(p));
  return a.status !== b.status ? ["status", ...changed] : changed;
};

/** What changes with the hidden judgement alone, per request: the paths whose values moved from judgement 0 to 1 but not between two reads under 0. */
async function whatTellsTheJudgement(calls: Call[], who: Person) {
  await judge(blind.db.prisma, blind.world.hidden.taskIds, 0);
  const first = await answers(calls, who);
  const again = await answers(calls, who);
  await judge(blind.db.prisma, blind.world.hidden.taskIds, 1);
  const flipped = await answers(calls, who);
  await judge(blind.db.prisma, blind.world.hidden.taskIds, 0);
  const told: Record<string, string[]> = {};
  for (const call of calls) {
    const volatile = new Set(differing(first.get(call.key)!, again.get(call.key)!));
    const moved = differing(first.get(call.key)!, flipped.get(call.key)!).filter((p) => !volatile.has(p));
    if (moved.length)
      told[call.key] = moved
        .slice(0, 5)
        .map(
          (p) =>
            `${p}: ${first.get(call.key)!.flat.get(p) ?? "(absent)"} → ${flipped.get(call.key)!.flat.get(p) ?? "(absent)"}`,
        );
  }
  return { told, all: [first, flipped] };
}

describe("every GET route, walked as a blind annotator", () => {
  let calls: Call[];
  beforeAll(async () => {
    calls = await walk();
  });

  it("walks every GET route of the OpenAPI document, with hidden and visible ids", () => {
    const walked = new Set(calls.map((c) => c.path));
    expect(walked.size).toBeGreaterThan(40);
    for (const path of [
      "/tasks/{id}/history",
      "/exports",
      "/trajectories/{id}",
      "/runs/{id}",
      "/analytics/funnel",
      "/environments/{id}",
    ])
      expect(walked).toContain(path);
    expect(calls.some((c) => c.url.includes(blind.world.hidden.taskIds[0]))).toBe(true);
  });

  it("answers nothing that tells a hidden task's judgement, and names no hidden task the annotator did not ask for", async () => {
    const { told, all } = await whatTellsTheJudgement(calls, blind.world.annotator);
    const carried: string[] = [];
    const named: string[] = [];
    const hiddenIds = [...blind.world.hidden.taskIds, ...blind.world.hidden.instanceIds];
    for (const call of calls) {
      const askedForHidden = [...hiddenIds, ...blind.world.hidden.objectIds].some((id) => call.url.includes(id));
      for (const seen of all) {
        const { text } = seen.get(call.key)!;
        if (text.includes(CANARY)) carried.push(call.url);
        if (!askedForHidden && hiddenIds.some((id) => text.includes(id)))
          named.push(`${call.url} names ${hiddenIds.find((id) => text.includes(id))}`);
      }
    }
    // one report of every kind of leak, so a failure lists each route at once
    expect({
      "answers that carry hidden text (a run log, a justification, a decision, an audit entry)": [...new Set(carried)],
      "answers that name a hidden task in a list, count or search": [...new Set(named)],
      "answers that change with the hidden judgement alone": told,
    }).toEqual({
      "answers that carry hidden text (a run log, a justification, a decision, an audit entry)": [],
      "answers that name a hidden task in a list, count or search": [],
      "answers that change with the hidden judgement alone": {},
    });
  }, 600_000);

  it("the same walk as a curator who is not blind sees the judgement change, so the walk can tell a leak", async () => {
    const { told } = await whatTellsTheJudgement(calls, blind.world.outsider);
    const routes = new Set(Object.keys(told).map((key) => calls.find((c) => c.key === key)!.path));
    for (const path of [
      "/tasks/{id}",
      "/tasks/{id}/history",
      "/tasks",
      "/tasks/facets",
      "/runs",
      "/runs/{id}",
      "/exports",
      "/trajectories/{id}",
      "/trajectories/compare",
      "/environments/{id}",
      "/agreement",
      "/reviewers/scores",
      "/analytics/funnel",
      "/analytics/reviewers",
      "/analytics/generated-tests",
      "/analytics/verifiability",
      "/jobs",
    ]) {
      expect(routes, `the walk saw no change in ${path} for a reader who is not blind`).toContain(path);
    }
  }, 600_000);
});

import { describe, expect, it } from "vitest";
import { callRoute } from "../helpers/route-call";
import { CANARY, withBlindWorld } from "./blind-seed";
import * as historyRoute from "../../app/api/v1/tasks/[id]/history/route";
import * as exportsRoute from "../../app/api/v1/exports/route";
import * as trajectoryRoute from "../../app/api/v1/trajectories/[id]/route";
import * as reviewNextRoute from "../../app/api/v1/review/next/route";

// The three reads issue 27 found open to a blind annotator (an annotator of an active campaign
// that hides the verdict, who has not labelled the task yet), each performed as the attack was:
// the task's audit trail, an export filtered by verdict, and a candidate's trajectory; and the
// review queue's lease, a read by another name (which task it hands out under a verdict filter).

const blind = withBlindWorld();

async function history(token: string, taskId: string) {
  const answer = await callRoute(historyRoute.GET, token, `/api/v1/tasks/${taskId}/history`, {
    params: { id: taskId },
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as { items: { action: string; before: unknown; after: unknown }[] };
}

async function exported(token: string, query: string) {
  // every task the query selects, validated or not, as the task list shows them
  const url = `/api/v1/exports?validatedOnly=false&query=${encodeURIComponent(query)}`;
  const answer = await callRoute(exportsRoute.GET, token, url);
  expect(answer.status).toBe(200);
  return (await answer.text())
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { instance_id: string });
}

async function trajectory(token: string, id: string) {
  const answer = await callRoute(trajectoryRoute.GET, token, `/api/v1/trajectories/${id}`, { params: { id } });
  expect(answer.status).toBe(200);
  return (await answer.json()) as { taskId: string; candidatePatch: { generator: string; resolved: boolean | null } };
}

describe("a blind annotator cannot read what blindness hides", () => {
  it("GET /tasks/{id}/history: the audit trail carries no verdict, override, decision or justification of a hidden task", async () => {
    const [taskId] = blind.world.hidden.taskIds;
    const seen = await history(blind.world.annotator.token, taskId);
    const text = JSON.stringify(seen);
    expect(text).not.toContain(CANARY);
    expect(text).not.toContain("automatedVerdict");
    // an edit stays, and an import's update without the fields that judge the task
    expect(seen.items.map((e) => e.action).sort()).toEqual(["import.update", "task.edited"]);
    // the same trail, whole, for a curator who is not blind: the attack reads what was there
    const full = await history(blind.world.outsider.token, taskId);
    expect(full.items.map((e) => e.action).sort()).toEqual([
      "import.update",
      "task.decided",
      "task.decision_undone",
      "task.edited",
      "task.verdict_overridden",
      "verdict.automated",
    ]);
    expect(JSON.stringify(full)).toContain(CANARY);
  });

  it("GET /exports?query=verdict=…: an export leaves hidden tasks out, as the task list does", async () => {
    for (const query of ["verdict=INVALID", "repository=acme/blindfold", "status=APPROVED"]) {
      const rows = await exported(blind.world.annotator.token, query);
      expect(
        rows.map((r) => r.instance_id).filter((id) => blind.world.hidden.instanceIds.includes(id)),
        query,
      ).toEqual([]);
    }
    // the visible task of the same verdict is exported to the annotator, and the hidden ones to the curator who is not blind
    expect((await exported(blind.world.annotator.token, "verdict=INVALID")).map((r) => r.instance_id)).toContain(
      "acme__open-1",
    );
    expect((await exported(blind.world.outsider.token, "verdict=INVALID")).map((r) => r.instance_id)).toEqual(
      expect.arrayContaining(blind.world.hidden.instanceIds),
    );
  });

  it("GET /trajectories/{id}: a hidden task's candidate comes without whether it resolved the task", async () => {
    const seen = await trajectory(blind.world.annotator.token, blind.world.hidden.trajectoryId);
    expect(seen.candidatePatch).toMatchObject({ generator: "gen-x", resolved: null });
    expect(
      (await trajectory(blind.world.outsider.token, blind.world.hidden.trajectoryId)).candidatePatch.resolved,
    ).toBe(true);
    expect(
      (await trajectory(blind.world.annotator.token, blind.world.visible.trajectoryId)).candidatePatch.resolved,
    ).toBe(true);
  });

  it("POST /review/next with a verdict filter never leases a hidden task", async () => {
    const claim = async (token: string) => {
      const answer = await callRoute(reviewNextRoute.POST, token, "/api/v1/review/next", {
        method: "POST",
        body: { filters: "repository=acme/blindfold&verdict=INVALID&status=APPROVED" },
      });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { claimed: { instanceId: string } | null }).claimed;
    };
    expect(await claim(blind.world.annotator.token)).toBeNull();
    expect(blind.world.hidden.instanceIds).toContain((await claim(blind.world.outsider.token))?.instanceId);
  });
});

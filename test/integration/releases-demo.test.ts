import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../helpers/database";
import { createDemoDatabase } from "../helpers/demo-database";
import { diffReleases } from "../../lib/releases/diff-releases";
import { NOT_BLIND } from "../../lib/auth/blind";

// The demo shows releases: two of them, a diff with every kind of change, and a stale approval.

let db: TestDatabase;
beforeAll(async () => {
  db = await createDemoDatabase();
});
afterAll(async () => db.drop());

describe("the releases demo", () => {
  it("has demo-v1 → demo-v2 with a task added, one removed as its approval went stale, and two changed", async () => {
    const diff = await diffReleases(db.prisma, "demo-v1", "demo-v2", NOT_BLIND);
    expect(diff.added.map((t) => t.instanceId)).toEqual(["demo-flow__calc-median"]);
    expect(diff.removed).toEqual([
      expect.objectContaining({
        instanceId: "demo-gen__calc-1-empty-raises",
        why: ["now pending", "decision went stale: the candidate patches changed"],
      }),
    ]);
    expect(diff.changed.map((t) => [t.instanceId, t.why.join("; ")])).toEqual([
      ["demo-gen__calc-1-empty-zero", "evidence changed: candidate patch"],
      [
        "demo-gen__calc-1-two-values",
        expect.stringMatching(/^decision changed: approve by curator@swe-curator\.local → approve by /),
      ],
    ]);
    // demo-flow__calc-mode, and whatever else the demo approved before the releases (the campaign settles a task)
    expect(diff.unchanged).toBe(diff.from.taskCount - diff.removed.length - diff.changed.length);
    expect(diff.unchanged).toBeGreaterThanOrEqual(1);
    const stale = await db.prisma.curationDecision.findFirstOrThrow({
      where: { task: { instanceId: "demo-gen__calc-1-empty-raises" } },
    });
    expect(stale.staleReason).toBe("the candidate patches changed");
  });
});

import { describe, expect, it } from "vitest";
import { logFailure } from "@/lib/errors/log-failure";
import { containerAlreadyGone } from "@/lib/docker/docker-errors";

describe("logFailure: a side task's failure is logged with what was being done, never swallowed", () => {
  it("says what failed and why", async () => {
    const lines: string[] = [];
    await Promise.reject(new Error("connection terminated")).catch(
      logFailure("renewing the lease of build b1", { log: (line) => lines.push(line) }),
    );
    expect(lines).toEqual(["renewing the lease of build b1 failed: connection terminated"]);
  });

  it("stays quiet about failures that are normal operation, and only those", async () => {
    const lines: string[] = [];
    const onFailure = logFailure("removing container c1", {
      expected: containerAlreadyGone,
      log: (line) => lines.push(line),
    });
    await Promise.reject(Object.assign(new Error("no such container"), { statusCode: 404 })).catch(onFailure);
    await Promise.reject(Object.assign(new Error("removal already in progress"), { statusCode: 409 })).catch(onFailure);
    await Promise.reject(Object.assign(new Error("engine error"), { statusCode: 500 })).catch(onFailure);
    expect(lines).toEqual(["removing container c1 failed: engine error"]);
  });
});

describe("logFailure on a database error", () => {
  it("keeps one line: the cause at the end of Prisma's quoted call", async () => {
    const lines: string[] = [];
    const prismaStyle = new Error(
      "\nInvalid `db.workerHeartbeat.deleteMany()` invocation in\n/app/lib/x.ts:22:3\n\n→ 22   await db.workerHeartbeat.deleteMany(\nDatabase error. Code: `57P01`.",
    );
    await Promise.reject(prismaStyle).catch(
      logFailure("removing this worker's heartbeat row", { log: (line) => lines.push(line) }),
    );
    expect(lines).toEqual(["removing this worker's heartbeat row failed: Database error. Code: `57P01`."]);
  });
});

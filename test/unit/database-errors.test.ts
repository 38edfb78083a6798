import { describe, expect, it } from "vitest";
import pg from "pg";
import { databaseUnavailableMessage, isDatabaseUnavailable } from "@/lib/db/database-errors";

// The shapes below are what pg and Prisma's driver adapter throw (seen in the database-restart test).
const pgError = (code: string, message: string) => Object.assign(new pg.DatabaseError(message, 0, "error"), { code });
const prismaWrapped = (cause: Record<string, unknown>) =>
  Object.assign(new Error("Invalid `prisma.task.findMany()` invocation:\n\nRaw query failed."), {
    code: "P2010",
    meta: { driverAdapterError: { name: "DriverAdapterError", cause } },
  });

describe("isDatabaseUnavailable", () => {
  it("recognises a server shutting down, restarting or unreachable", () => {
    expect(isDatabaseUnavailable(pgError("57P03", "the database system is shutting down"))).toBe(true);
    expect(isDatabaseUnavailable(pgError("57P01", "terminating connection due to administrator command"))).toBe(true);
    expect(
      isDatabaseUnavailable(
        prismaWrapped({ kind: "postgres", code: "57P03", message: "the database system is starting up" }),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(prismaWrapped({ kind: "DatabaseNotReachable", host: "127.0.0.1", port: 5432 }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(prismaWrapped({ kind: "ConnectionClosed" }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(
      isDatabaseUnavailable(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })),
    ).toBe(true);
  });

  it("leaves the query's own errors alone", () => {
    expect(isDatabaseUnavailable(pgError("23505", "duplicate key value violates unique constraint"))).toBe(false);
    expect(
      isDatabaseUnavailable(prismaWrapped({ kind: "UniqueConstraintViolation", constraint: { fields: ["email"] } })),
    ).toBe(false);
    expect(isDatabaseUnavailable(pgError("53100", "could not extend file: No space left on device"))).toBe(false);
    expect(isDatabaseUnavailable(new Error("Something else"))).toBe(false);
  });

  it("says what happened in one line", () => {
    expect(databaseUnavailableMessage(prismaWrapped({ kind: "DatabaseNotReachable" }))).toBe(
      "the database was unavailable (database not reachable)",
    );
    expect(databaseUnavailableMessage(pgError("57P03", "the database system is shutting down"))).toBe(
      "the database was unavailable (57P03 the database system is shutting down)",
    );
  });
});

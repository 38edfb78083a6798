import { describe, expect, it } from "vitest";
import { can, PERMISSIONS, roleAtLeast } from "../../lib/auth/permissions";

describe("role → permissions", () => {
  it("a viewer reads but may not decide, run jobs, import or manage users", () => {
    expect(can("VIEWER", "tasks:read")).toBe(true);
    for (const p of ["tasks:decide", "jobs:run", "imports:run", "users:manage"] as const)
      expect(can("VIEWER", p)).toBe(false);
  });
  it("a curator decides and runs jobs but does not manage users", () => {
    expect(can("CURATOR", "tasks:decide")).toBe(true);
    expect(can("CURATOR", "jobs:run")).toBe(true);
    expect(can("CURATOR", "users:manage")).toBe(false);
  });
  it("an admin may do everything; nobody signed out may do anything", () => {
    for (const p of Object.keys(PERMISSIONS) as (keyof typeof PERMISSIONS)[]) {
      expect(can("ADMIN", p)).toBe(true);
      expect(can(null, p)).toBe(false);
    }
    expect(roleAtLeast("CURATOR", "ADMIN")).toBe(false);
  });
});

describe("rolesWith: the same map answers who holds a permission", () => {
  it("assignees are whoever may decide, the last admin is whoever may manage users", async () => {
    const { rolesWith } = await import("../../lib/auth/permissions");
    expect(rolesWith("tasks:decide")).toEqual(["CURATOR", "ADMIN"]);
    expect(rolesWith("users:manage")).toEqual(["ADMIN"]);
    expect(rolesWith("tasks:read")).toEqual(["VIEWER", "CURATOR", "ADMIN"]);
  });
});

import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, ConfigError, PLATFORM_VARIABLES, readServerConfig } from "@/lib/config/server-config";

const README = readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8");

/** The README's configuration table: each row's variables (first column) and its default cell. */
function readmeRows(): { names: string[]; defaults: string }[] {
  const section = README.slice(README.indexOf("## Configuration"));
  const table = section.slice(0, section.indexOf("\n\n", section.indexOf("| variable")));
  return table
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const [names, defaults] = line.split(" | ");
      return { names: [...names.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]), defaults };
    });
}

/** A default cell split into one piece per variable, when every piece is a `literal`. */
function literalDefaults(cell: string, count: number): (string | null)[] {
  const pieces = cell.split(/,\s+(?=`)/).map((piece) => piece.trim().match(/^`([^`]*)`$/)?.[1] ?? null);
  return pieces.length === count ? pieces : Array(count).fill(null);
}

const moduleDefault = (name: (typeof CONFIG_VARIABLES)[number]): string | undefined => {
  const value = readServerConfig({})[name];
  if (value === undefined) return undefined;
  return typeof value === "boolean" ? (value ? "1" : "0") : String(value);
};

describe("configuration: one validated module", () => {
  it("answers a bad value with one sentence naming the variable and what it must be, never the schema library's dump", () => {
    const error = (() => {
      try {
        readServerConfig({ WORKER_CONCURRENCY: "two", NEXTAUTH_URL: "curator.example" });
      } catch (caught) {
        return caught as Error;
      }
      throw new Error("a bad value was accepted");
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain('WORKER_CONCURRENCY is "two", but it must be a whole number');
    expect(error.message).toContain('NEXTAUTH_URL is "curator.example", but it must be an http(s) URL');
    expect(error.message.split("\n")).toHaveLength(2);
    expect(error.message).not.toMatch(/invalid_type|expected|"path"|\[|ZodError/i);
  });

  it("never repeats a password in its sentence", () => {
    expect(() => readServerConfig({ DATABASE_URL: "mysql://root:hunter2@db/x" })).toThrow(
      'DATABASE_URL is "mysql://root:***@db/x", but it must be a PostgreSQL URL',
    );
  });

  it("turns values into their types and treats an empty value as unset", () => {
    const config = readServerConfig({
      WORKER_CONCURRENCY: "3",
      CONTAINER_CPUS: "0.5",
      START_WORKER: "0",
      SEED_DEMO: "",
      PORT: "",
    });
    expect(config).toMatchObject({
      WORKER_CONCURRENCY: 3,
      CONTAINER_CPUS: 0.5,
      START_WORKER: false,
      SEED_DEMO: true,
      PORT: 3000,
    });
  });

  it("documents in the README's table exactly the variables it reads", () => {
    const documented = readmeRows().flatMap((row) => row.names);
    const read = CONFIG_VARIABLES.filter((name) => !PLATFORM_VARIABLES.has(name));
    expect([...new Set(documented)].sort()).toEqual([...read].sort());
  });

  it("states in the README the defaults the code uses", () => {
    const mismatches: string[] = [];
    for (const row of readmeRows()) {
      literalDefaults(row.defaults, row.names.length).forEach((stated, i) => {
        const name = row.names[i] as (typeof CONFIG_VARIABLES)[number];
        const actual = moduleDefault(name);
        if (stated !== null && actual !== undefined && stated !== actual)
          mismatches.push(`${name}: README says ${stated}, the code uses ${actual}`);
      });
    }
    expect(mismatches).toEqual([]);
    expect(literalDefaults(readmeRows().find((row) => row.names.includes("WORKER_CONCURRENCY"))!.defaults, 2)[0]).toBe(
      moduleDefault("WORKER_CONCURRENCY"),
    );
  });
});

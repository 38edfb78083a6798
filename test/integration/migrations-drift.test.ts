import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import pg from "pg";
import { diffMigrationsToSchema } from "../../lib/db/schema-engine";

describe("prisma/migrations and schema.prisma", () => {
  it("agree: a schema edit without its migration fails here (run npm run db:migrate -- --name …)", async () => {
    const sql = await diffMigrationsToSchema(`${inject("databaseBaseUrl")}/postgres`);
    expect(sql, `schema.prisma has changes no migration holds:\n${sql}`).toBe("");
  });

  it("the migrated database records every migration in _prisma_migrations, as prisma migrate deploy expects", async () => {
    const client = new pg.Client({ connectionString: `${inject("databaseBaseUrl")}/swe_curator_template` });
    await client.connect();
    const { rows } = await client.query(
      "select migration_name, finished_at from _prisma_migrations order by migration_name",
    );
    await client.end();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
    expect(rows[0].migration_name).toMatch(/^\d{14}_init$/);
  });
});

// `npm run db:migrate -- --name X`: writes prisma/migrations/<timestamp>_X/migration.sql from
// the difference between the committed migrations and schema.prisma (offline, wasm engine).
import { mkdir, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { MIGRATIONS_DIR, diffMigrationsToSchema } from "../lib/db/schema-engine";
import { withDatabase } from "../lib/database-server/database-server";

const { values } = parseArgs({ options: { name: { type: "string" } } });
const name = (values.name ?? "").replace(/[^a-zA-Z0-9_]/g, "_");
if (!name) {
  console.error("usage: npm run db:migrate -- --name describe_the_change");
  process.exit(2);
}

await withDatabase(async ({ url }) => {
  const sql = await diffMigrationsToSchema(url);
  if (!sql) {
    console.log("schema.prisma matches the migrations: nothing to do");
    return;
  }
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "migration.sql"), sql + "\n");
  const lock = path.join(MIGRATIONS_DIR, "migration_lock.toml");
  if (!existsSync(lock)) await writeFile(lock, 'provider = "postgresql"\n');
  console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
});

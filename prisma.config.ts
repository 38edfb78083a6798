import { defineConfig } from "prisma/config";

// Prisma 7 reads its datasource here and does not load .env itself. Migrations are
// applied by our own offline commands (lib/db/migrate.ts); the CLI only generates.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/swe_curator" },
});

import { randomBytes } from "node:crypto";
import path from "node:path";
import type { Db, PrismaClient } from "../../lib/db/client";
import { hashPassword } from "../../lib/auth/passwords";
import { configFrom } from "../../lib/config/server-config";

// The demo a fresh `npm start` shows: the shipped calculator environments (which later
// validate for real in Docker), real SWE-bench Lite instances and a real SWE-agent
// trajectory (prisma/seed/fixtures, sources in SOURCES.txt), and one curator and one viewer.

export const DEMO_DIR = path.join(import.meta.dirname, "demo");
export const DEMO_FIXTURES_DIR = path.join(import.meta.dirname, "fixtures");
export const DEMO_USERS = [
  { email: "curator@swe-curator.local", name: "Demo Curator", role: "CURATOR" as const },
  { email: "viewer@swe-curator.local", name: "Demo Viewer", role: "VIEWER" as const },
];

export type SeedReport = { seeded: boolean; tasks: number; demoPassword?: { value: string; generated: boolean } };

async function seedDemoUsers(db: Db, password: string) {
  const passwordHash = await hashPassword(password);
  for (const user of DEMO_USERS) {
    await db.user.upsert({ where: { email: user.email }, create: { ...user, passwordHash }, update: {} });
  }
}

// Real public samples first, then the demo agents' patches and a reviewer's verdicts on them,
// all through the importers users use.
const SEED_FILES = [
  path.join(DEMO_FIXTURES_DIR, "swe-bench-lite-test.json"),
  path.join(DEMO_FIXTURES_DIR, "swe-bench-dev-easy.json"),
  path.join(DEMO_FIXTURES_DIR, "pydicom__pydicom-1458.traj"),
  path.join(DEMO_DIR, "agents", "predictions.jsonl"),
  path.join(DEMO_DIR, "agents", "reviewer-verdicts.jsonl"),
  path.join(DEMO_DIR, "agents", "demo__calc-1.traj"),
];

async function importSeedFiles(db: PrismaClient, log: (line: string) => void) {
  // the importers belong to the imports feature; loaded lazily so a seed without them still works
  const { importFile } = await import("../../lib/imports/import-file");
  for (const file of SEED_FILES) {
    const batch = await importFile(db, file, { fileName: path.basename(file) });
    log(`[seed] imported ${path.basename(file)}: ${batch.created} created, ${batch.failed} failed`);
  }
}

/** Seeds the demo into an empty database; does nothing when any task exists. */
export async function seedDemo(
  db: PrismaClient,
  options: { log?: (line: string) => void; env?: Record<string, string | undefined> } = {},
): Promise<SeedReport> {
  const log = options.log ?? console.log;
  const config = configFrom(options.env);
  if ((await db.task.count()) > 0) return { seeded: false, tasks: 0 };
  const generated = !config.DEMO_PASSWORD;
  const password = config.DEMO_PASSWORD ?? randomBytes(9).toString("base64url");
  await seedDemoUsers(db, password);
  const { loadDemoEnvironments } = await import("../../lib/environments/load-demo-environments");
  await loadDemoEnvironments(db, DEMO_DIR);
  await importSeedFiles(db, log);
  const { seedAnalyticsDemo } = await import("./seed-analytics-demo");
  await seedAnalyticsDemo(db, log);
  const { seedDemoCampaign } = await import("../../lib/campaigns/demo-campaign");
  await seedDemoCampaign(db, password, log);
  const { seedEvidenceDemo } = await import("../../lib/runs/demo-evidence");
  await seedEvidenceDemo(db, log);
  const { seedFailuresDemo } = await import("./seed-failures-demo");
  await seedFailuresDemo(db, log);
  const { seedReleasesDemo } = await import("./seed-releases-demo");
  await seedReleasesDemo(db, log);
  return { seeded: true, tasks: await db.task.count(), demoPassword: { value: password, generated } };
}

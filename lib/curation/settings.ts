import { z } from "zod";
import type { Db, PrismaClient } from "../db/client";
import { auditLog } from "../audit/audit-log";

// Curation settings live in the Setting table (key → JSON) so an admin changes them at run
// time; every reader falls back to the defaults below when a key was never set.

export const CurationSettingsSchema = z.object({
  /** distinct curators whose latest decision is APPROVE before a task counts as APPROVED */
  approvalsRequired: z.number().int().min(1).max(10),
  /** how long "Review next" reserves a task for one curator */
  leaseMinutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60),
});
export type CurationSettings = z.infer<typeof CurationSettingsSchema>;
export const CurationSettingsUpdateSchema = CurationSettingsSchema.partial();

export const DEFAULT_CURATION_SETTINGS: CurationSettings = { approvalsRequired: 1, leaseMinutes: 15 };

const KEYS: Record<keyof CurationSettings, string> = {
  approvalsRequired: "curation.approvalsRequired",
  leaseMinutes: "curation.leaseMinutes",
};

export async function getCurationSettings(db: Db): Promise<CurationSettings> {
  const rows = await db.setting.findMany({ where: { key: { in: Object.values(KEYS) } } });
  const settings = { ...DEFAULT_CURATION_SETTINGS };
  for (const name of Object.keys(KEYS) as (keyof CurationSettings)[]) {
    const row = rows.find((r) => r.key === KEYS[name]);
    const parsed = CurationSettingsSchema.shape[name].safeParse(row?.value);
    if (parsed.success) settings[name] = parsed.data;
  }
  return settings;
}

export async function approvalsRequired(db: Db): Promise<number> {
  return (await getCurationSettings(db)).approvalsRequired;
}

export async function updateCurationSettings(
  db: PrismaClient,
  actorId: string,
  update: z.infer<typeof CurationSettingsUpdateSchema>,
) {
  const before = await getCurationSettings(db);
  await db.$transaction(async (tx) => {
    for (const [name, value] of Object.entries(update) as [keyof CurationSettings, number | undefined][]) {
      if (value === undefined) continue;
      await tx.setting.upsert({ where: { key: KEYS[name] }, create: { key: KEYS[name], value }, update: { value } });
    }
    await auditLog(tx, {
      actorId,
      entityType: "setting",
      entityId: "curation",
      action: "settings.updated",
      before,
      after: { ...before, ...update },
    });
  });
  return getCurationSettings(db);
}

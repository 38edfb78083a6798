import type { PrismaClient } from "../db/client";
import { auditLog } from "../audit/audit-log";
import { AppError, notFound } from "../errors/app-error";

/**
 * Accepts a changed published image: forgets the pinned digest, so the next validation pulls the
 * image as it is now and pins that. A curator's deliberate step, audited with the digest it drops.
 */
export async function repinEnvironmentImage(db: PrismaClient, actor: { id: string } | null, environmentId: string) {
  return db.$transaction(async (tx) => {
    const environment = await tx.environment.findUnique({
      where: { id: environmentId },
      select: { id: true, key: true, imageSource: true, imageReference: true, imageDigest: true },
    });
    if (!environment) throw notFound("The environment");
    if (environment.imageSource !== "IMAGE")
      throw new AppError(
        "UNPROCESSABLE",
        `Environment ${environment.key} does not run a published image, so it has no digest to re-pin`,
      );
    await tx.environment.update({ where: { id: environment.id }, data: { imageDigest: null, imageId: null } });
    await auditLog(tx, {
      actorId: actor?.id ?? null,
      entityType: "environment",
      entityId: environment.id,
      action: "environment.repin",
      before: { imageDigest: environment.imageDigest },
      after: { imageDigest: null },
    });
    return { id: environment.id, imageReference: environment.imageReference, imageDigest: null };
  });
}

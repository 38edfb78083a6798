import type { Db } from "../db/client";

// Failed password sign-ins are counted per account and per client address in Postgres, so
// every web node sees the same counts. Over the limit, the key is locked for a while and
// even the right password is refused until then: otherwise guessing simply continues.

type Limit = { maxFailures: number; windowMs: number; lockMs: number };

const MINUTE = 60_000;
export const SIGN_IN_LIMITS: Record<"account" | "address", Limit> = {
  account: { maxFailures: 10, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  // an address may try several accounts (a shared office NAT), but not spray them all
  address: { maxFailures: 30, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
};

export type ThrottleKeys = { account: string; address: string | null };

const keyList = (keys: ThrottleKeys) =>
  [["account", `account:${keys.account}`], ...(keys.address ? [["address", `address:${keys.address}`]] : [])] as [
    "account" | "address",
    string,
  ][];

/** When the earliest of the keys' locks ends, or null when none is locked. */
export async function signInLockedUntil(db: Db, keys: ThrottleKeys): Promise<Date | null> {
  const locked = await db.signInThrottle.findMany({
    where: { key: { in: keyList(keys).map(([, key]) => key) }, lockedUntil: { gt: new Date() } },
    select: { lockedUntil: true },
  });
  const ends = locked.map((row) => row.lockedUntil!.getTime());
  return ends.length ? new Date(Math.max(...ends)) : null;
}

async function countFailure(db: Db, key: string, limit: Limit, now: Date) {
  // the increment is one atomic upsert, so parallel guesses cannot slip past the count
  const row = await db.signInThrottle.upsert({
    where: { key },
    create: { key, failures: 1, windowStartedAt: now },
    update: { failures: { increment: 1 } },
  });
  if (now.getTime() - row.windowStartedAt.getTime() > limit.windowMs) {
    await db.signInThrottle.update({ where: { key }, data: { failures: 1, windowStartedAt: now } });
  } else if (row.failures >= limit.maxFailures) {
    await db.signInThrottle.update({
      where: { key },
      data: { failures: 0, windowStartedAt: now, lockedUntil: new Date(now.getTime() + limit.lockMs) },
    });
  }
}

export async function recordSignInFailure(db: Db, keys: ThrottleKeys) {
  const now = new Date();
  for (const [kind, key] of keyList(keys)) await countFailure(db, key, SIGN_IN_LIMITS[kind], now);
}

/** A successful sign-in clears the account's count (not the address's: it may be guessing others). */
export async function recordSignInSuccess(db: Db, keys: ThrottleKeys) {
  await db.signInThrottle.deleteMany({ where: { key: `account:${keys.account}` } });
}

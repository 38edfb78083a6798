import bcrypt from "bcryptjs";
import { randomBytes } from "node:crypto";

const COST = 10;

export const hashPassword = (plain: string) => bcrypt.hash(plain, COST);
export const verifyPassword = (plain: string, hash: string) => bcrypt.compare(plain, hash);

// Compared against when the e-mail is unknown (or has no password), so that answer costs
// the same bcrypt work as a wrong password and timing does not tell which e-mails exist.
const STAND_IN_HASH = bcrypt.hashSync(randomBytes(16).toString("hex"), COST);

/** Checks a password against a hash, or against a stand-in with the same cost when there is none. */
export async function verifyPasswordOrStandIn(plain: string, hash: string | null | undefined): Promise<boolean> {
  const matches = await verifyPassword(plain, hash ?? STAND_IN_HASH);
  return matches && !!hash;
}

// bcrypt reads only the first 72 bytes: a longer password would silently match its prefix.
const MAX_BYTES = 72;
export const MIN_PASSWORD_LENGTH = 12;

/** The minimum password policy, as a sentence saying what to change, or null when it passes. */
export function passwordPolicyProblem(password: string, email?: string): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters`;
  if (Buffer.byteLength(password, "utf8") > MAX_BYTES)
    return `Use at most ${MAX_BYTES} bytes (bcrypt ignores the rest)`;
  if (new Set(password).size < 4) return "Use more than three different characters";
  if (email && password.toLowerCase().includes(email.split("@")[0].toLowerCase()) && email.split("@")[0].length >= 4) {
    return "Do not build the password from your e-mail address";
  }
  return null;
}

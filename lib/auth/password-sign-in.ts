import { z } from "zod";
import { prisma } from "../db/client";
import { serverConfig } from "../config/server-config";
import { verifyPasswordOrStandIn } from "./passwords";
import { recordSignInFailure, recordSignInSuccess, signInLockedUntil, type ThrottleKeys } from "./sign-in-throttle";

const CredentialsSchema = z.object({ email: z.string().trim().toLowerCase().email(), password: z.string().min(1) });

/**
 * next-auth's Credentials check. A known e-mail, an unknown one, a disabled account and an
 * account without a password all cost one bcrypt comparison, so the answer time does not
 * reveal which e-mails have accounts.
 */
export async function authorizeWithPassword(raw: unknown) {
  const parsed = CredentialsSchema.safeParse(raw);
  if (!parsed.success) return null;
  const user = await prisma.user.findUnique({ where: { email: parsed.data.email } });
  const matches = await verifyPasswordOrStandIn(parsed.data.password, user?.passwordHash);
  if (!user || !matches || user.disabled) return null;
  return {
    id: user.id,
    email: user.email,
    name: user.name ?? user.email,
    role: user.role,
    sessionVersion: user.sessionVersion,
  };
}

/**
 * The client's address, read only behind a reverse proxy (TRUST_PROXY=1): the last
 * X-Forwarded-For entry, which the proxy appended from what it saw. Without a proxy the
 * client writes that header itself (Next keeps it and adds the socket's address only when
 * it is absent), so forged addresses could dodge the per-address limit or lock a victim's
 * address out: it is not read, and only the per-account limit holds.
 */
export function clientAddress(headers: Headers, trustProxy = serverConfig().TRUST_PROXY): string | null {
  if (!trustProxy) return null;
  const forwarded = headers.get("x-forwarded-for");
  const last = forwarded?.split(",").at(-1)?.trim();
  return last || headers.get("x-real-ip") || null;
}

async function throttleKeysOf(request: Request): Promise<ThrottleKeys> {
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  const email = String(form?.get("email") ?? "")
    .trim()
    .toLowerCase();
  return { account: email, address: clientAddress(request.headers) };
}

function tooManyAttempts(request: Request, until: Date): Response {
  const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  const errorUrl = new URL("/api/auth/error", request.url);
  errorUrl.searchParams.set("error", "TooManyAttempts");
  // next-auth's client reads `url` and its `error` parameter (signIn with redirect: false)
  return Response.json(
    {
      url: errorUrl.toString(),
      error: {
        code: "TOO_MANY_REQUESTS",
        message: `Too many failed sign-ins; try again in ${Math.ceil(seconds / 60)} minute(s)`,
      },
    },
    { status: 429, headers: { "retry-after": String(seconds) } },
  );
}

/**
 * Wraps next-auth's credentials callback: refused with 429 while the account or the address
 * is locked (the right password too), failures counted, a success clears the account's count.
 */
export async function throttledPasswordSignIn(request: Request, signIn: () => Promise<Response>): Promise<Response> {
  const keys = await throttleKeysOf(request);
  const lockedUntil = await signInLockedUntil(prisma, keys);
  if (lockedUntil) return tooManyAttempts(request, lockedUntil);
  const response = await signIn();
  if (response.status === 401) await recordSignInFailure(prisma, keys);
  else if (response.ok) await recordSignInSuccess(prisma, keys);
  return response;
}

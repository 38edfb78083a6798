import { AppError } from "../errors/app-error";
import { hasSessionCookie } from "../auth/cookies";
import { serverConfig } from "../config/server-config";

// A browser attaches the session cookie to a request another site makes (a form posted
// from a page on another port of this host or a sibling subdomain gets past SameSite=Lax),
// so every cookie-authenticated change must prove it came from our own pages. Browsers
// always send Origin (or at least Sec-Fetch-Site) on POST/PUT/PATCH/DELETE; a request with
// neither is not from a browser, so no ambient cookie of a victim rides on it.

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

// What our own clients send: JSON from apiFetch, raw bytes for an upload, multipart forms.
// text/plain and urlencoded are the types a cross-site <form> can send without a preflight.
const ACCEPTED_BODY_TYPES = ["application/json", "multipart/form-data", "application/octet-stream"];

function ourHosts(headers: Headers): Set<string> {
  const hosts = new Set<string>();
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  if (host) hosts.add(host.split(",")[0].trim().toLowerCase());
  const publicUrl = serverConfig().NEXTAUTH_URL;
  if (publicUrl) {
    try {
      hosts.add(new URL(publicUrl).host.toLowerCase());
    } catch {
      // a malformed NEXTAUTH_URL adds nothing; next-auth reports it itself
    }
  }
  return hosts;
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null; // "null" (sandboxed frames, file:) or garbage: never ours
  }
}

function assertFromOurPages(headers: Headers) {
  const origin = headers.get("origin");
  if (origin !== null) {
    const host = originHost(origin);
    if (!host || !ourHosts(headers).has(host)) {
      throw new AppError(
        "FORBIDDEN",
        `This change came from another site (Origin ${origin}); the dashboard accepts changes only from its own pages`,
      );
    }
    return;
  }
  const fetchSite = headers.get("sec-fetch-site");
  if (fetchSite !== null && fetchSite !== "same-origin") {
    throw new AppError(
      "FORBIDDEN",
      `This change came from another site (Sec-Fetch-Site: ${fetchSite}); the dashboard accepts changes only from its own pages`,
    );
  }
}

function hasBody(headers: Headers): boolean {
  const length = headers.get("content-length");
  return headers.has("transfer-encoding") || (length !== null && length !== "0");
}

function assertAcceptedBodyType(headers: Headers) {
  const raw = headers.get("content-type");
  if (raw === null) {
    if (hasBody(headers))
      throw new AppError(
        "UNSUPPORTED_MEDIA_TYPE",
        "Send the body with a Content-Type: application/json for data, application/octet-stream for an upload",
      );
    return;
  }
  const type = raw.split(";")[0].trim().toLowerCase();
  if (!ACCEPTED_BODY_TYPES.includes(type) && !type.endsWith("+json")) {
    throw new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      `A body of type ${type} is not accepted; send application/json (an upload: application/octet-stream)`,
    );
  }
}

/**
 * Refuses a change that rides on a session cookie but did not come from our own pages
 * (403), or whose body is of a type a cross-site form can send (415). Bearer-token calls
 * carry no ambient credential and pass untouched.
 */
export function assertSameSiteMutation(request: Request) {
  if (!MUTATING.has(request.method.toUpperCase())) return;
  if (request.headers.get("authorization")?.startsWith("Bearer ")) return;
  if (!hasSessionCookie(request.headers.get("cookie"))) return;
  assertFromOurPages(request.headers);
  assertAcceptedBodyType(request.headers);
}

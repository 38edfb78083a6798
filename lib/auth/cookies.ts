// Reading the Cookie header by hand (route handlers get a plain Request). One malformed
// cookie, e.g. `x=%E0%A4%A`, must not break the request: it is kept as it came.

export const SESSION_COOKIE_NAMES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

function decodeLeniently(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function parseCookieHeader(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of header?.split(";") ?? []) {
    const i = part.indexOf("=");
    if (i <= 0) continue;
    const name = part.slice(0, i).trim();
    if (!cookies.has(name)) cookies.set(name, decodeLeniently(part.slice(i + 1).trim()));
  }
  return cookies;
}

/** A cookie's value; next-auth splits a large session cookie into name.0, name.1, … */
export function readCookie(header: string | null, name: string): string | undefined {
  const cookies = parseCookieHeader(header);
  if (cookies.has(name)) return cookies.get(name);
  const chunks: string[] = [];
  for (let i = 0; cookies.has(`${name}.${i}`); i++) chunks.push(cookies.get(`${name}.${i}`)!);
  return chunks.length ? chunks.join("") : undefined;
}

export function hasSessionCookie(header: string | null): boolean {
  return SESSION_COOKIE_NAMES.some((name) => readCookie(header, name) !== undefined);
}

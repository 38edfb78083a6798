// Where to go after signing in comes from the URL (?callbackUrl=), so anyone can write it.
// Browsers read "//evil.example" and "/\evil.example" as another host: resolving against
// our origin and comparing origins catches those, tabs and newlines, and absolute URLs.

/** `target` as an absolute URL when it stays on `origin`, else null. */
export function sameOriginUrl(target: string, origin: string): string | null {
  try {
    const base = new URL(origin);
    const url = new URL(target, base);
    return url.origin === base.origin ? url.toString() : null;
  } catch {
    return null;
  }
}

/** A path on this site to go to after signing in: `target` when it stays on `origin`, else `fallback`. */
export function safeCallbackPath(target: string | null | undefined, origin: string, fallback = "/tasks"): string {
  const url = target ? sameOriginUrl(target, origin) : null;
  if (!url) return fallback;
  const { pathname, search, hash } = new URL(url);
  return pathname + search + hash;
}

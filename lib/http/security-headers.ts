// The browser-side defences every response carries. The Content-Security-Policy of a page
// needs a fresh nonce per request (Next puts it on its own inline scripts), so proxy.ts
// builds it; the rest are the same for every response and live in next.config.ts.

export type CspOptions = { nonce: string; dev?: boolean; https?: boolean };

/**
 * Scripts run only with this request's nonce (and what those load: 'strict-dynamic'), so an
 * injected <script>, onerror= or javascript: URL does not run. Monaco needs its workers
 * (from our origin or blob:) and inline styles; nothing is loaded from another origin.
 */
export function pageContentSecurityPolicy({ nonce, dev = false, https = false }: CspOptions): string {
  return [
    "default-src 'self'",
    // React's dev build uses eval for its error overlays; production never does
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** API answers are data, never documents: nothing may run or be framed. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

export function staticSecurityHeaders(https: boolean): { key: string; value: string }[] {
  return [
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    { key: "X-Frame-Options", value: "DENY" },
    { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
    ...(https ? [{ key: "Strict-Transport-Security", value: "max-age=31536000" }] : []),
  ];
}

import { NextResponse, type NextRequest } from "next/server";
import { pageContentSecurityPolicy } from "@/lib/http/security-headers";
import { serverConfig, servedOverHttps } from "@/lib/config/server-config";

// Next 16's request proxy (formerly middleware): gives every page request a fresh CSP
// nonce. Next reads it from the request's Content-Security-Policy header and puts it on
// the scripts it inlines; the same policy goes out on the response.
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const policy = pageContentSecurityPolicy({
    nonce,
    dev: serverConfig().NODE_ENV === "development",
    https: servedOverHttps(),
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  // pages only: API answers get their fixed policy in next.config.ts, static files need none
  matcher: [
    {
      source: "/((?!api/|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};

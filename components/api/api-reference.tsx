"use client";
import dynamic from "next/dynamic";
import "swagger-ui-react/swagger-ui.css";

// Swagger UI bundled from npm (no CDN), reading this server's own OpenAPI document with the
// browser's session; "Try it out" calls the API as the signed-in user.
const SwaggerUI = dynamic(() => import("swagger-ui-react"), { ssr: false, loading: () => <p className="text-sm text-slate-500">Loading the API reference…</p> });

export function ApiReference() {
  return (
    <div data-testid="api-reference" className="rounded border bg-white">
      <SwaggerUI url="/api/v1/openapi.json" docExpansion="list" defaultModelsExpandDepth={0} tryItOutEnabled={false} />
    </div>
  );
}

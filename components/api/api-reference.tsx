"use client";
import dynamic from "next/dynamic";
import { useEffect, useRef } from "react";

// Swagger UI bundled from npm (no CDN), reading this server's own OpenAPI document with the
// browser's session; "Try it out" calls the API as the signed-in user.
const SwaggerUI = dynamic(() => import("./swagger-ui-styled"), {
  ssr: false,
  loading: () => <p className="text-sm text-slate-500">Loading the API reference…</p>,
});

/**
 * Swagger UI renders its server picker without a label, and its operations and schemas each in
 * a <main> of their own, inside the page's one main landmark; name the picker, and make those
 * inner mains named regions, as they appear.
 */
function useMendedSwaggerMarkup() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const mend = () => {
      root.querySelector("select#servers:not([aria-label])")?.setAttribute("aria-label", "Server");
      for (const inner of root.querySelectorAll("main:not([role])")) {
        inner.setAttribute("role", "region");
        if (!inner.hasAttribute("aria-label"))
          inner.setAttribute("aria-label", inner.id === "operations" ? "Operations" : "Schemas");
      }
    };
    const observer = new MutationObserver(mend);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return ref;
}

export function ApiReference() {
  const ref = useMendedSwaggerMarkup();
  return (
    <div ref={ref} data-testid="api-reference" className="rounded border bg-white">
      <SwaggerUI url="/api/v1/openapi.json" docExpansion="list" defaultModelsExpandDepth={0} tryItOutEnabled={false} />
    </div>
  );
}

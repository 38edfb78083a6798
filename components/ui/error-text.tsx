"use client";
import { ApiError } from "./api";

/** A failed request, said plainly: the server's message (which says what to do), not a stack. */
export function ErrorText({ error, prefix }: { error: unknown; prefix?: string }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ApiError ? error.code : null;
  return (
    <p role="alert" className="rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {prefix ? `${prefix}: ` : ""}
      {message}
      {code && code !== "CONFLICT" ? <span className="ml-1 text-xs text-red-700">({code})</span> : null}
    </p>
  );
}

"use client";

/** A failed /api/v1 request, read from its RFC 9457 problem document. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly fieldErrors: { field: string; detail: string }[] = [],
  ) {
    super(message);
  }
}

type ProblemBody = {
  code?: string;
  detail?: string;
  title?: string;
  details?: unknown;
  errors?: { field: string; detail: string }[];
} | null;

/** fetch for our /api/v1: JSON in and out, errors thrown with the server's code and sentence. */
export async function apiFetch<T>(path: string, init?: RequestInit & { json?: unknown }): Promise<T> {
  const { json, ...rest } = init ?? {};
  const response = await fetch(path, {
    ...rest,
    headers: { ...(json !== undefined ? { "content-type": "application/json" } : {}), ...rest.headers },
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
  const body = response.headers.get("content-type")?.includes("json") ? await response.json() : null;
  if (!response.ok) {
    const problem = body as ProblemBody;
    throw new ApiError(
      response.status,
      problem?.code ?? "HTTP_" + response.status,
      problem?.detail ?? problem?.title ?? response.statusText,
      problem?.details,
      problem?.errors,
    );
  }
  return body as T;
}

/** Every item of a paged /api/v1 list ({ items, nextCursor }), following the cursor. */
export async function apiFetchAll<T>(path: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes("?") ? "&" : "?";
    const page: { items: T[]; nextCursor: string | null } = await apiFetch(
      `${path}${separator}limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

import net from "node:net";
import { CliError, EXIT } from "./exit-codes";
import { embeddedBaseUrl } from "../db/database-server";

// The CLI talks either straight to the database (DATABASE_URL, or the embedded one
// `npm start` runs on this machine) or to a running server (SWE_CURATOR_URL +
// SWE_CURATOR_TOKEN, an API token from Settings → Tokens).

export type Connection =
  | { mode: "database"; url: string; describe: string }
  | { mode: "server"; baseUrl: string; token: string; describe: string };


function listening(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.setTimeout(500);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
    socket.once("error", () => resolve(false));
  });
}

export async function resolveConnection(env: NodeJS.ProcessEnv = process.env): Promise<Connection> {
  if (env.SWE_CURATOR_URL) {
    if (!env.SWE_CURATOR_TOKEN) throw new CliError("SWE_CURATOR_URL is set but SWE_CURATOR_TOKEN is not: create an API token in Settings → Tokens and export it", EXIT.USAGE);
    const baseUrl = env.SWE_CURATOR_URL.replace(/\/+$/, "");
    return { mode: "server", baseUrl, token: env.SWE_CURATOR_TOKEN, describe: `server ${baseUrl}` };
  }
  if (env.DATABASE_URL) return { mode: "database", url: env.DATABASE_URL, describe: "DATABASE_URL" };
  const port = Number(env.EMBEDDED_PG_PORT ?? 54329);
  if (await listening(port)) return { mode: "database", url: `${embeddedBaseUrl(port)}/swe_curator`, describe: `the embedded database on port ${port}` };
  throw new CliError(
    "Nothing to talk to: set DATABASE_URL, or SWE_CURATOR_URL and SWE_CURATOR_TOKEN, or run `npm start` on this machine (the CLI then uses its embedded database)",
    EXIT.USAGE,
  );
}

/** fetch against the server with the token; network failures and 401/403 become CLI errors with their exit code. */
export async function api(connection: Extract<Connection, { mode: "server" }>, path: string, init: RequestInit & { duplex?: "half" } = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`${connection.baseUrl}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${connection.token}` } });
  } catch (error) {
    throw new CliError(`Cannot reach ${connection.baseUrl}: ${(error as Error).cause ?? (error as Error).message}`, EXIT.UNREACHABLE);
  }
  if (response.status === 401 || response.status === 403) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new CliError(`The server refused the token: ${body?.error?.message ?? response.statusText}`, EXIT.UNREACHABLE);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new CliError(`${init.method ?? "GET"} ${path} failed (${response.status}): ${body?.error?.message ?? response.statusText}`, response.status >= 500 ? EXIT.FAILED : EXIT.FAILED);
  }
  return response;
}

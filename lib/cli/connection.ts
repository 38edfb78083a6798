import net from "node:net";
import { CliError, EXIT } from "./exit-codes";
import { embeddedBaseUrl } from "../database-server/database-server";
import { serverConfig, type ServerConfig } from "../config/server-config";

// The CLI talks either to a running server over /api/v1 (--server URL --token TOKEN, or
// SWE_CURATOR_URL + SWE_CURATOR_TOKEN: an API token from Settings → API tokens), so machines
// without database access can import and export, or straight to the database
// (DATABASE_URL, or the embedded one `npm start` runs on this machine).

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

/** Where to talk: --server/--token first, then SWE_CURATOR_URL/SWE_CURATOR_TOKEN, then DATABASE_URL, then the embedded database. */
export async function resolveConnection(
  flags: { server?: string; token?: string } = {},
  env: ServerConfig = serverConfig(),
): Promise<Connection> {
  const server = flags.server ?? env.SWE_CURATOR_URL;
  if (server) {
    const token = flags.token ?? env.SWE_CURATOR_TOKEN;
    const from = flags.server ? "--server" : "SWE_CURATOR_URL";
    if (!token)
      throw new CliError(
        `${from} is given but no token: pass --token or set SWE_CURATOR_TOKEN (create an API token in Settings → API tokens)`,
        EXIT.USAGE,
      );
    if (!/^https?:\/\//.test(server))
      throw new CliError(
        `${from} must be an http(s) URL such as http://curator.example:3000, not "${server}"`,
        EXIT.USAGE,
      );
    const baseUrl = server.replace(/(?<!\/)\/+$/, "");
    return { mode: "server", baseUrl, token, describe: `server ${baseUrl}` };
  }
  if (flags.token)
    throw new CliError(
      "--token needs --server (or SWE_CURATOR_URL): a token is for a server, not for the database",
      EXIT.USAGE,
    );
  if (env.DATABASE_URL) return { mode: "database", url: env.DATABASE_URL, describe: "DATABASE_URL" };
  const port = env.EMBEDDED_PG_PORT;
  if (await listening(port))
    return {
      mode: "database",
      url: `${embeddedBaseUrl(port)}/swe_curator`,
      describe: `the embedded database on port ${port}`,
    };
  throw new CliError(
    "Nothing to talk to: pass --server URL --token TOKEN, set DATABASE_URL, or run `npm start` on this machine (the CLI then uses its embedded database)",
    EXIT.USAGE,
  );
}

/** fetch against the server with the token; network failures and 401/403 become CLI errors with their exit code. */
export async function api(
  connection: Extract<Connection, { mode: "server" }>,
  path: string,
  init: RequestInit & { duplex?: "half" } = {},
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`${connection.baseUrl}${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${connection.token}` },
    });
  } catch (error) {
    throw new CliError(
      `Cannot reach ${connection.baseUrl}: ${(error as Error).cause ?? (error as Error).message}`,
      EXIT.UNREACHABLE,
    );
  }
  if (response.ok) return response;
  // every /api/v1 error is a problem document: its detail is the sentence to show
  const problem = (await response.json().catch(() => null)) as { detail?: string } | null;
  const detail = problem?.detail ?? response.statusText;
  if (response.status === 401 || response.status === 403)
    throw new CliError(`The server refused the token: ${detail}`, EXIT.UNREACHABLE);
  throw new CliError(`${init.method ?? "GET"} ${path} failed (${response.status}): ${detail}`, EXIT.FAILED);
}

import { createServer as createHttpServer, type Server } from "node:http";
import { createServer, connect, type Server as NetServer } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const BASE_IMAGE = process.env.BASE_IMAGE || "swe-curator/python-base:bookworm";

/** An HTTP server on 127.0.0.1 (or the given address) that counts every request: a build that reached it is caught. */
export async function startRecordingHttpServer(
  host = "127.0.0.1",
): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createHttpServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.end("fetched from the network\n");
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://${host}:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A unix socket that forwards to the real Docker engine and records each API request line
 * (method and path), so a test sees whether a build or an image pull was asked for.
 */
export async function startRecordingDockerProxy(
  target = "/var/run/docker.sock",
): Promise<{ dockerHost: string; requests: string[]; close(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), "swc-docker-proxy-"));
  const socketPath = path.join(dir, "docker.sock");
  const requests: string[] = [];
  const sockets = new Set<{ destroy(): void }>();
  const server: NetServer = createServer((client) => {
    const upstream = connect(target);
    sockets.add(client).add(upstream);
    client.on("data", (chunk: Buffer) => {
      for (const match of chunk.toString("latin1").matchAll(/^(GET|POST|PUT|DELETE|HEAD) (\S+) HTTP\/1\.[01]\r$/gm))
        requests.push(`${match[1]} ${match[2]}`);
    });
    client.pipe(upstream).on("error", () => client.destroy());
    upstream.pipe(client).on("error", () => upstream.destroy());
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    dockerHost: `unix://${socketPath}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

import type { Metadata } from "next";
import { connection } from "next/server";
import "./globals.css";
import { Providers } from "@/components/providers";

export const metadata: Metadata = {
  title: "SWE Curator",
  description: "Curate SWE environments, tasks and trajectories",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // every page renders per request, so its scripts carry that request's CSP nonce (proxy.ts)
  await connection();
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}

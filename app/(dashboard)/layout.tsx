import { pageActor } from "@/lib/auth/session";
import { DashboardFrame } from "@/components/nav/dashboard-frame";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  return <DashboardFrame actor={await pageActor()}>{children}</DashboardFrame>;
}

import type { ReactNode } from "react";
import { AnalyticsTabs } from "@/components/analytics/analytics-frame";

export default function AnalyticsLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <AnalyticsTabs />
      {children}
    </>
  );
}

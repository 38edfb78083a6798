import { LabelPage } from "@/components/trajectory/label-page";

export default async function TrajectoryLabelsPage({ searchParams }: { searchParams: Promise<{ label?: string | string[] }> }) {
  const { label } = await searchParams;
  return <LabelPage label={(Array.isArray(label) ? label[0] : label)?.slice(0, 60) || null} />;
}

import { TrajectoryInspector } from "@/components/trajectory/trajectory-inspector";

export default async function TrajectoryPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <TrajectoryInspector trajectoryId={id} />;
}

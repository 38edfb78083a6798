import { EnvironmentDetail } from "@/components/environments/environment-detail";

export default async function EnvironmentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <EnvironmentDetail environmentId={id} />;
}

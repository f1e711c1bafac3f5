import { PodHeader } from "@/components/pod-header";
import { TapeView } from "@/components/tape-view";

export const dynamic = "force-dynamic";

export default async function PodPage({ params }: { params: Promise<{ podId: string }> }) {
  const { podId } = await params;
  return (
    <div className="space-y-6">
      <PodHeader podId={podId} />
      <TapeView podId={podId} />
    </div>
  );
}

// The approval card's place in the live transcript: the card itself
// (components/ApprovalCardView.tsx, with its wording of every choice) loads when the first
// approval of a page shows, so a chat that never asks ships none of it before interaction (the
// page's 60 KB budget). The pill above the composer says an approval waits meanwhile.
import { useEffect, useState } from "preact/hooks";
import type { ApprovalCardProps } from "./ApprovalCardView.tsx";

export type { ApprovalCardProps, ApprovalChoice } from "./ApprovalCardView.tsx";

type View = typeof import("./ApprovalCardView.tsx").ApprovalCardView;

let loading: Promise<View> | undefined;
let loaded: View | undefined;

function loadView(): Promise<View> {
  loading ??= import("./ApprovalCardView.tsx").then((m) => loaded = m.ApprovalCardView);
  // A failed load (the server restarted mid-deploy) is tried again by the next card.
  loading.catch(() => (loading = undefined));
  return loading;
}

export function ApprovalCard(props: ApprovalCardProps) {
  const [View, setView] = useState<View | undefined>(() => loaded);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!View) loadView().then((v) => setView(() => v), (err) => setError(String(err)));
  }, []);
  if (View) return <View {...props} />;
  return error ? <p class="card-error" role="alert">{error}</p> : null;
}

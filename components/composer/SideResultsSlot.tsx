// Where the side answers and background tasks show above the composer (SidePanels.tsx). Their
// code, and the markdown renderer it brings, loads the first time there is something to show:
// most chats never ask a side question, and the page's first load stays light.
import { useEffect, useState } from "preact/hooks";
import { type ComposerModel, describeError } from "../../lib/browser/composer/composer_model.ts";

type SidePanelsModule = typeof import("./SidePanels.tsx");

export function SideResultsSlot({ model: m }: { model: ComposerModel }) {
  const wanted = m.side.btw.value !== null || m.side.tasks.value.length > 0;
  const [mod, setMod] = useState<SidePanelsModule | null>(null);
  useEffect(() => {
    if (!wanted || mod) return;
    import("./SidePanels.tsx").then(setMod, (err) => m.error.value = describeError(err));
  }, [wanted]);
  return wanted && mod ? <mod.SidePanels model={m} /> : null;
}

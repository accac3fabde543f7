// The model catalog stays per replica (each discovers models within its own time budget), but
// replicas refresh together: a provider change saved on one re-reads config and drops the
// catalog on every other, so the model picker never disagrees between two requests that a load
// balancer sent to different processes.
import type { AppContext } from "../server/app_context.ts";
import { busOf, CHANNELS } from "./bus.ts";

export function syncCatalogAcrossReplicas(app: AppContext): void {
  const bus = busOf(app.db);
  if (!bus.shared) return;
  // A reload this signal caused must not signal again (each change travels once).
  let echoing = false;
  app.onProviderConfigChange.push(() => {
    if (echoing) return;
    // The change is saved already: a signal that cannot leave is logged, never thrown.
    void bus.publish(CHANNELS.catalog, bus.replicaId).catch((err) =>
      app.log.warn("could not tell other replicas of a provider change", { error: String(err) })
    );
  });
  const stop = bus.subscribe(CHANNELS.catalog, {
    signal(from) {
      if (from === bus.replicaId) return;
      echoing = true;
      app.reloadConfig()
        .catch((err) =>
          app.log.warn("could not reload config for another replica's change", {
            error: String(err),
          })
        )
        .finally(() => (echoing = false));
    },
  });
  app.onClose.push(stop);
}

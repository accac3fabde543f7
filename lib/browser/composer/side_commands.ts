// Browser-safe: imports nothing from Deno or the database.
// The composer commands of issue 14's busy-run controls: /queue, /steer and /interrupt set what
// Send does while an answer runs (with text: send that one message that way now), /btw asks a
// side question, /background starts a background task. Invariant: a mode command with text
// and nothing running sends the text as a normal message.
import type { SlashCommand } from "../slash_commands.ts";
import { type MessageMode, type MessageModes, modeHint, modeVerb } from "./message_mode.ts";
import { t } from "../../i18n/t.ts";
import type { SideRuns } from "./side_runs.ts";

/** The part of the composer these commands act on (a slice of composer_commands' CommandHost). */
export interface SideCommandHost {
  readonly modes: MessageModes;
  readonly side: SideRuns;
  sendWhileBusy(text: string, how: MessageMode): Promise<void>;
  send(text: string): Promise<void>;
  replaceDraft(text: string): void;
  showFlash(text: string): void;
}

/** Run `c` if it is one of these commands; false otherwise. */
export async function runSideCommand(
  host: SideCommandHost,
  c: SlashCommand,
  arg: string,
): Promise<boolean> {
  const done = () => host.replaceDraft("");
  switch (c.name) {
    case "queue":
    case "steer":
    case "interrupt": {
      const how = c.name as MessageMode;
      done();
      if (!arg) {
        host.modes.mode.value = how;
        host.showFlash(t("composer.modeSet", { verb: modeVerb(how), hint: modeHint(how) }));
        return true;
      }
      if (host.modes.busy()) await host.sendWhileBusy(arg, how);
      else await host.send(arg);
      return true;
    }
    case "btw":
      if (!arg) return (host.replaceDraft("/btw "), true);
      done();
      await host.side.ask(arg);
      return true;
    case "background":
      if (!arg) return (host.replaceDraft("/background "), true);
      done();
      await host.side.startBackground(arg);
      return true;
  }
  return false;
}

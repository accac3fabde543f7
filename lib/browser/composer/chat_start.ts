// What starting a run answers the page, shared by the composer and the commands that start runs
// (chat/start, retry, compress, /goal's kickoff): a file of its own so neither imports the other.
import type { HermesEvents } from "../../shared/ui_events.ts";

/** POST /api/chat/start's (and retry's, compress's, goal's kickoff) answer. */
export interface StartAnswer {
  stream_id: string;
  session_id: string;
  turn_id: string;
  title: string;
}

export type ChatStartKind = NonNullable<HermesEvents["hermes:chat-started"]["kind"]>;

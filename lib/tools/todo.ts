// The `todo` tool: the agent's visible plan. Each call replaces (or with merge, updates by id)
// the session's list and emits `todo_state` with the whole list, so the UI always shows the
// latest plan. The list lives in memory per app and is seeded from the journal after a restart.
import { z } from "zod";
import { type AsyncQueries, parseJsonColumn, sql } from "../storage/db.ts";
import { defineTool, type ToolDefinition } from "./types.ts";

export const TODO_STATUSES = ["pending", "in_progress", "completed", "cancelled"] as const;
export type TodoStatus = typeof TODO_STATUSES[number];
export interface TodoItem {
  id: string;
  content: string;
  status: TodoStatus;
}

/** The last plan a session's runs published (from the journal), or []. */
export async function lastJournaledTodos(
  db: AsyncQueries,
  sessionId: string,
): Promise<TodoItem[]> {
  try {
    const row = await db.get<{ data: string }>(
      sql`SELECT e.data FROM stream_events e JOIN streams s ON s.stream_id = e.stream_id
          WHERE s.session_id = ${sessionId} AND e.event = 'todo_state'
          ORDER BY s.started_at DESC, e.seq DESC LIMIT 1`,
    );
    return parseJsonColumn<{ todos?: TodoItem[] }>(row?.data, {}).todos ?? [];
  } catch {
    return [];
  }
}

const MARK: Record<TodoStatus, string> = {
  pending: "[ ]",
  in_progress: "[>]",
  completed: "[x]",
  cancelled: "[-]",
};

export function renderTodos(todos: TodoItem[]): string {
  if (todos.length === 0) return "The plan is empty.";
  const done = todos.filter((t) => t.status === "completed").length;
  return [
    ...todos.map((t) => `${MARK[t.status]} ${t.id}. ${t.content}`),
    `(${done}/${todos.length} completed)`,
  ].join("\n");
}

export function todoTool(
  deps: { db: AsyncQueries; todos: Map<string, TodoItem[]> },
): ToolDefinition {
  return defineTool({
    name: "todo",
    description: "Keep a visible plan for multi-step work. Call with `todos` to set the list " +
      "(replaces it), or with merge=true to update items by id and append new ones. Call " +
      "without arguments to read the current plan. Keep exactly one item in_progress while " +
      "working; mark items completed as soon as they are done.",
    parameters: z.object({
      todos: z.array(z.object({
        id: z.string().min(1).max(64),
        content: z.string().max(500).optional(),
        status: z.enum(TODO_STATUSES).optional(),
      })).max(100).optional(),
      merge: z.boolean().optional(),
    }),
    async execute(args, ctx) {
      const current = deps.todos.get(ctx.sessionId) ??
        await lastJournaledTodos(deps.db, ctx.sessionId);
      if (!args.todos) {
        deps.todos.set(ctx.sessionId, current);
        return { output: renderTodos(current) };
      }
      let next: TodoItem[];
      if (args.merge) {
        next = current.map((t) => ({ ...t }));
        for (const item of args.todos) {
          const existing = next.find((t) => t.id === item.id);
          if (existing) {
            if (item.content !== undefined) existing.content = item.content;
            if (item.status !== undefined) existing.status = item.status;
          } else {
            next.push({
              id: item.id,
              content: item.content ?? "",
              status: item.status ?? "pending",
            });
          }
        }
      } else {
        const missing = args.todos.find((t) => !t.content);
        if (missing) {
          return {
            output:
              `Item "${missing.id}" has no content; give every item content, or use merge=true ` +
              "to update existing items.",
            isError: true,
          };
        }
        next = args.todos.map((t) => ({
          id: t.id,
          content: t.content!,
          status: t.status ?? "pending",
        }));
      }
      deps.todos.set(ctx.sessionId, next);
      ctx.emit({ event: "todo_state", data: { todos: next.map((t) => ({ ...t })) } });
      return { output: renderTodos(next) };
    },
  });
}

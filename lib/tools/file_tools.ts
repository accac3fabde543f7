// The file tools (read_file, write_file, patch, list_directory, search_files). Each validates its
// arguments with zod and runs in the workspace's sandbox Worker (lib/sandbox/file_sandbox.ts),
// whose Deno permissions cover that workspace only; paths are relative to the workspace root.
import { z } from "zod";
import type { FileSandboxPool } from "../sandbox/file_sandbox.ts";
import { FILE_LIMITS } from "../sandbox/file_ops.ts";
import { defineTool, type ToolDefinition } from "./types.ts";
import { withDiff } from "./file_diff.ts";
import { askBeforeGitMetadata } from "./file_guard.ts";

const path = z.string().min(1).describe(
  "Path relative to the workspace root (e.g. src/main.ts). Absolute paths and .. are refused.",
);

export function readFileTool(files: FileSandboxPool): ToolDefinition {
  return defineTool({
    name: "read_file",
    description: "Read a text file from the workspace. Returns numbered lines (`N|text`). " +
      `Reads ${FILE_LIMITS.defaultReadLines} lines by default; use offset (1-based line) and ` +
      `limit (max ${FILE_LIMITS.maxReadLines}) to page through long files. Files over ` +
      `${FILE_LIMITS.maxReadFileBytes / 1024 / 1024} MB and binary files are refused.`,
    parameters: z.object({
      path,
      offset: z.number().int().min(1).optional().describe("First line to read (1-based)."),
      limit: z.number().int().min(1).max(FILE_LIMITS.maxReadLines).optional()
        .describe("Number of lines to read."),
    }),
    execute: (args, ctx) => files.run(ctx.workspace, "read", args, ctx.signal),
  });
}

export function writeFileTool(files: FileSandboxPool): ToolDefinition {
  return defineTool({
    name: "write_file",
    description: "Create or overwrite a file in the workspace with the given content " +
      "(parent directories are created). Prefer `patch` for small edits to existing files.",
    parameters: z.object({
      path,
      content: z.string().describe("The complete new content of the file."),
    }),
    execute: askBeforeGitMetadata(
      "write_file",
      withDiff((args, ctx) => files.run(ctx.workspace, "write", args, ctx.signal)),
    ),
  });
}

export function patchTool(files: FileSandboxPool): ToolDefinition {
  return defineTool({
    name: "patch",
    description: "Edit a file by exact search and replace: old_string must appear in the file " +
      "exactly (whitespace and indentation included) and, unless replace_all is true, exactly " +
      "once — include enough surrounding lines to make it unique. Fails, saying how many " +
      "matches there were, when it is missing or ambiguous.",
    parameters: z.object({
      path,
      old_string: z.string().min(1).describe("The exact text to replace."),
      new_string: z.string().describe("The replacement text."),
      replace_all: z.boolean().optional().describe("Replace every occurrence (default false)."),
    }),
    execute: askBeforeGitMetadata(
      "patch",
      withDiff((args, ctx) => files.run(ctx.workspace, "patch", args, ctx.signal)),
    ),
  });
}

export function listDirectoryTool(files: FileSandboxPool): ToolDefinition {
  return defineTool({
    name: "list_directory",
    description: "List a workspace directory: subdirectories first (with a trailing /), then " +
      `files with their sizes. Up to ${FILE_LIMITS.maxListEntries} entries.`,
    parameters: z.object({
      path: z.string().optional().describe("Directory relative to the workspace root (default .)."),
    }),
    execute: (args, ctx) => files.run(ctx.workspace, "list", args, ctx.signal),
  });
}

export function searchFilesTool(files: FileSandboxPool): ToolDefinition {
  return defineTool({
    name: "search_files",
    description: "Search the workspace. target=content (default): `pattern` is a JavaScript " +
      "regular expression matched line by line, results as `path:line: text`. target=files: " +
      "`pattern` is a filename glob (*, **, ?, {a,b}). file_glob narrows content searches " +
      "(e.g. *.ts). Skips .git, node_modules and binary files; results are capped (limit).",
    parameters: z.object({
      pattern: z.string().min(1).describe("Regex (content) or glob (files)."),
      target: z.enum(["content", "files"]).optional(),
      path: z.string().optional().describe("Directory or file to search (default .)."),
      file_glob: z.string().optional().describe("Only search files matching this glob."),
      limit: z.number().int().min(1).max(FILE_LIMITS.maxSearchResults).optional()
        .describe(`Maximum results (default ${FILE_LIMITS.defaultSearchResults}).`),
      case_insensitive: z.boolean().optional(),
    }),
    execute: (args, ctx) => files.run(ctx.workspace, "search", args, ctx.signal),
  });
}

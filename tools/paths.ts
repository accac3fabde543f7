// Path helpers for the build tools (node:path and node:url under the names @std/path uses).
export { dirname, join, relative } from "node:path";
export { fileURLToPath as fromFileUrl } from "node:url";

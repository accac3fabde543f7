import type { PageProps } from "../lib/file_router.ts";

export default function Home(_props: PageProps) {
  return <main class="app-shell">Hermes Console</main>;
}

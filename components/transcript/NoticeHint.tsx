// The hint under a turn notice: prose lines as text, YAML/config examples (runs of `key:` or
// indented lines) as code blocks so their shape survives, and an optional link (the
// "No provider configured" card links to /onboarding).
export interface NoticeHintProps {
  hint?: string;
  link?: { href: string; label: string };
}

type Block = { code: boolean; lines: string[] };

const CODE_LINE = /^(\s+\S|[A-Za-z_][\w.-]*:(\s|$))/;

/** Group the hint's lines into prose and code blocks (pure; exported for tests). */
export function hintBlocks(hint: string): Block[] {
  const blocks: Block[] = [];
  for (const line of hint.split("\n")) {
    const code = CODE_LINE.test(line);
    const last = blocks.at(-1);
    if (last && last.code === code) last.lines.push(line);
    else blocks.push({ code, lines: [line] });
  }
  return blocks;
}

export function NoticeHint({ hint, link }: NoticeHintProps) {
  return (
    <div class="turn-notice-hint">
      {hintBlocks(hint ?? "").map((b, i) =>
        b.code
          ? <pre key={i} class="turn-notice-code"><code>{b.lines.join("\n")}</code></pre>
          : <p key={i}>{b.lines.join(" ")}</p>
      )}
      {link ? <a class="turn-notice-link" href={link.href}>{link.label}</a> : null}
    </div>
  );
}

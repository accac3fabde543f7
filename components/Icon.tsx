// Inline stroke icons (Lucide geometry, ISC licence): no icon font, no extra request, and
// they take `currentColor`, so one accent rule colours them. Browser-safe (islands use it).
import type { SVGAttributes } from "preact";

const PATHS = {
  plus: ["M5 12h14", "M12 5v14"],
  search: ["M21 21l-4.3-4.3", "M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16z"],
  newChat: [
    "M12 3H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2v-7",
    "M18.4 2.6a2.1 2.1 0 0 1 3 3L12 15l-4 1 1-4z",
  ],
  arrowUp: ["M12 19V5", "M5 12l7-7 7 7"],
  pin: [
    "M12 17v5",
    "M9 10.8a2 2 0 0 1-1.1 1.8l-1.8.9A2 2 0 0 0 5 15.2V16a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-.8a2 2 0 0 0-1.1-1.8l-1.8-.9A2 2 0 0 1 15 10.8V7a1 1 0 0 1 1-1 2 2 0 0 0 0-4H8a2 2 0 0 0 0 4 1 1 0 0 1 1 1z",
  ],
  panelRight: [
    "M5 3h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z",
    "M15 3v18",
  ],
  folder: [
    "M20 20a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-7.9a2 2 0 0 1-1.7-.9l-.8-1.2A2 2 0 0 0 7.9 3H4a2 2 0 0 0-2 2v13a2 2 0 0 0 2 2z",
  ],
  settings: [
    "M20 7h-9",
    "M14 17H5",
    "M17 20a3 3 0 1 0 0-6 3 3 0 0 0 0 6z",
    "M7 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6z",
  ],
  x: ["M18 6 6 18", "M6 6l12 12"],
  square: ["M7 5h10a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2z"],
  cpu: [
    "M7 4h10a3 3 0 0 1 3 3v10a3 3 0 0 1-3 3H7a3 3 0 0 1-3-3V7a3 3 0 0 1 3-3z",
    "M9 9h6v6H9z",
  ],
  archive: ["M3 4h18v4H3z", "M5 8v11a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1V8", "M10 12h4"],
} as const;

export type IconName = keyof typeof PATHS;

interface IconProps extends Omit<SVGAttributes<SVGSVGElement>, "name" | "size"> {
  name: IconName;
  /** Square size in px; defaults to 16 (the UI's icon grid). */
  size?: number;
}

/** A decorative icon (aria-hidden); give the control around it an accessible name. */
export function Icon({ name, size = 16, ...rest }: IconProps) {
  return (
    <svg
      class="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="1.75"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      {PATHS[name].map((d) => <path d={d} key={d} />)}
    </svg>
  );
}

// Browser-safe: imports nothing from Deno or the database.
// The person's motion preference for scripted movement (CSS covers its own animations in
// static/style.css): with `prefers-reduced-motion: reduce`, a scroll jumps instead of gliding.

/** True when the person asked the system for reduced motion. */
export function prefersReducedMotion(): boolean {
  return typeof matchMedia === "function" &&
    matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The `behavior` for a scroll that would glide: "auto" (instant) under reduced motion. */
export function scrollBehavior(smooth = true): ScrollBehavior {
  return smooth && !prefersReducedMotion() ? "smooth" : "auto";
}

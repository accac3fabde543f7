// The nearest-rank percentile every bench prints (p50, p95, p99) from ascending samples.
export function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)];
}

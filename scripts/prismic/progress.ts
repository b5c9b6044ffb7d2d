/**
 * Progress lines for long pushes: "n of N" per step and an estimate of the time left, from the
 * average time per request so far (the write client spaces writes 1,500 ms apart, so a plan of
 * N writes takes at least 1.5 × N seconds).
 */
export class Progress {
  private started = Date.now()
  private done = 0

  constructor(
    private total: number,
    private log: (line: string) => void,
  ) {}

  /** Counts one request of the plan and prints its line. */
  step(label: string, current: number, count: number, what: string): void {
    this.done += 1
    const elapsed = (Date.now() - this.started) / 1000
    const perRequest = Math.max(elapsed / this.done, 1.5)
    const left = Math.max(this.total - this.done, 0) * perRequest
    this.log(`  ${label} ${current} of ${count}: ${what} (about ${formatSeconds(left)} left)`)
  }
}

/** "2 min 05 s", "12 s". */
export function formatSeconds(seconds: number): string {
  const s = Math.round(seconds)
  return s >= 60 ? `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s` : `${s} s`
}

/** An X display for a browser in a window: `DISPLAY` when set, else an Xvfb started here. */
export function ensureDisplay(): Promise<{ display: string; stop: () => void }>

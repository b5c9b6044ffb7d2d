export function writeViewersSection(reportFile: string, report: unknown): void

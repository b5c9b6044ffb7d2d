/** The "Models" section of bench/report.md, from bench/models.json. */
export function modelsSection(report: unknown): string
/** Replaces the section in `reportFile` (or adds it at the end). */
export function writeModelsSection(reportFile: string, report: unknown): void

/** The JSON report: canonical, deterministic text (2-space indent, final newline). */
import type { AuditReport } from '../model/report.js';

export const renderJson = (report: AuditReport): string => `${JSON.stringify(report, null, 2)}\n`;

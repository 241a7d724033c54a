import { createRequire } from 'node:module';
import type * as CvssCalculator from 'ae-cvss-calculator';
import type { Severity } from '@arca/contracts';

// a CommonJS bundle whose exports Node cannot name to an ES module: required, typed by its declarations
const { fromVector } = createRequire(import.meta.url)('ae-cvss-calculator') as typeof CvssCalculator;

/** A CVSS vector an advisory gives, with its base score. */
export interface CvssScore {
  /** 2, 3 or 4 (3.0 and 3.1 are both 3). */
  version: 2 | 3 | 4;
  vector: string;
  score: number;
}

/** OSV's severity entries: `{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/…' }`. */
type SeverityEntry = { type: string; score: string };

const VERSION_OF: Record<string, CvssScore['version']> = { CVSS_V2: 2, CVSS_V3: 3, CVSS_V4: 4 };

/** The newest CVSS version's vector among an advisory's severity entries, scored; undefined when none parses. */
export function cvssOf(entries: SeverityEntry[]): CvssScore | undefined {
  const scored = entries.flatMap((entry) => {
    const version = VERSION_OF[entry.type];
    const parsed = version ? fromVector(entry.score) : undefined;
    const score = parsed?.calculateScores().overall;
    return version && typeof score === 'number' && Number.isFinite(score)
      ? [{ version, vector: entry.score, score }]
      : [];
  });
  return scored.sort((a, b) => b.version - a.version)[0];
}

/** The qualitative rating of a base score, as each CVSS version's specification names its ranges. */
export function ratingOf({ version, score }: CvssScore): Severity {
  if (version === 2) return score >= 7 ? 'High' : score >= 4 ? 'Medium' : 'Low';
  if (score >= 9) return 'Critical';
  if (score >= 7) return 'High';
  if (score >= 4) return 'Medium';
  return score > 0 ? 'Low' : 'Unknown';
}

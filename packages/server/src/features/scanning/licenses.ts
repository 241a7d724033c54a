import spdxCorrect from 'spdx-correct';
import spdx from 'spdx-license-list';

/** A declared licence as SPDX names it: its identifier (empty when SPDX knows none) and full name. */
export interface SpdxLicense {
  id: string;
  name: string;
}

/**
 * The licences a package declares, normalised to SPDX (`Apache 2.0` is `Apache-2.0`, `GPLv3` is
 * `GPL-3.0-or-later`); an expression (`MIT OR Apache-2.0`) gives each of its licences; one SPDX
 * does not know is kept as declared.
 */
export function spdxLicenses(declared: string[]): SpdxLicense[] {
  const found = new Map<string, SpdxLicense>();
  for (const text of declared) {
    const parts = text
      .replace(/[()]/g, ' ')
      .split(/\s+(?:OR|AND|WITH)\s+/i)
      .map((p) => p.trim())
      .filter(Boolean);
    for (const part of parts) {
      const id = spdx[part] ? part : (spdxCorrect(part) ?? '');
      const license = id && spdx[id] ? { id, name: spdx[id].name } : { id: '', name: part };
      found.set(license.id || license.name, license);
    }
  }
  return [...found.values()];
}

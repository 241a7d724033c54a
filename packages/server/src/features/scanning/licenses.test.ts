import { describe, expect, it } from 'vitest';
import { spdxLicenses } from './licenses.js';

describe('declared licences as SPDX names them', () => {
  it('corrects the common spellings, splits expressions and keeps what SPDX does not know', () => {
    expect(spdxLicenses(['Apache 2.0', 'GPLv3', 'MIT'])).toEqual([
      { id: 'Apache-2.0', name: 'Apache License 2.0' },
      { id: 'GPL-3.0-or-later', name: 'GNU General Public License v3.0 or later' },
      { id: 'MIT', name: 'MIT License' },
    ]);
    expect(spdxLicenses(['(MIT OR Apache-2.0)', 'MIT'])).toEqual([
      { id: 'MIT', name: 'MIT License' },
      { id: 'Apache-2.0', name: 'Apache License 2.0' },
    ]);
    expect(spdxLicenses(['Acme Corporation Proprietary Licence'])).toEqual([
      { id: '', name: 'Acme Corporation Proprietary Licence' },
    ]);
    expect(spdxLicenses([])).toEqual([]);
  });
});

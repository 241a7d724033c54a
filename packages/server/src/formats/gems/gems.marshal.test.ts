import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspectGem, marshalSpec } from './gems.gem.js';
import { RubyHash, RubyObject, RubyUserMarshal, dump, load, sym } from './gems.marshal.js';

/** What Ruby itself makes of bytes: `Marshal.load` and `inspect` in Debian's ruby. */
const rubyInspect = (bytes: Buffer, code = 'p Marshal.load(STDIN.read)') =>
  execFileSync('ruby', ['-e', `require "rubygems"; ${code}`], { input: bytes })
    .toString()
    .trim();

describe('Ruby Marshal', () => {
  it('writes what Ruby reads back: strings, symbols repeated, integers of every width, arrays, hashes, objects', () => {
    const bytes = dump([
      'héllo',
      sym('runtime'),
      sym('runtime'),
      0,
      5,
      122,
      123,
      -1,
      -124,
      65_536,
      -70_000,
      2 ** 31 - 1,
      null,
      true,
      false,
      new RubyHash([['k', 'v']]),
      new RubyUserMarshal('Gem::Version', ['1.2.3']),
      new RubyObject('Gem::Dependency', [
        ['@name', 'rake'],
        ['@type', sym('development')],
      ]),
    ]);
    expect(
      rubyInspect(bytes, 'a = Marshal.load(STDIN.read); p a[0..15]; p a[16].to_s; p [a[17].name, a[17].type]'),
    ).toBe(
      '["héllo", :runtime, :runtime, 0, 5, 122, 123, -1, -124, 65536, -70000, 2147483647, nil, true, false, {"k"=>"v"}]\n"1.2.3"\n["rake", :development]',
    );
  });

  it('reads what Ruby writes: a specs index', () => {
    const bytes = execFileSync('ruby', [
      '-e',
      'require "rubygems"; STDOUT.write Marshal.dump([["rake", Gem::Version.new("13.0.6"), "ruby"], ["nokogiri", Gem::Version.new("1.15.0"), "x86_64-linux"]])',
    ]);
    expect(load(bytes)).toEqual([
      ['rake', { class: 'Gem::Version', data: ['13.0.6'] }, 'ruby'],
      ['nokogiri', { class: 'Gem::Version', data: ['1.15.0'] }, 'x86_64-linux'],
    ]);
  });

  it('writes a gem’s specification as Gem::Specification loads it (the quick index)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-gem-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'demo.gemspec'),
        "Gem::Specification.new { |s| s.name = 'demo'; s.version = '1.2.0'; s.summary = 'Demo'; s.authors = ['Acme']; s.files = []; s.license = 'MIT'; s.required_ruby_version = '>= 2.7'; s.add_runtime_dependency 'rake', '>= 12', '< 14' }",
      );
      execFileSync('gem', ['build', 'demo.gemspec'], { cwd: dir, stdio: 'ignore' });
      const entry = await inspectGem(fs.readFileSync(path.join(dir, 'demo-1.2.0.gem')));
      const spec = rubyInspect(
        marshalSpec(entry),
        's = Marshal.load(STDIN.read); p [s.name, s.version.to_s, s.platform.to_s, s.summary, s.required_ruby_version.to_s, s.runtime_dependencies.map(&:to_s)]',
      );
      expect(spec).toBe('["demo", "1.2.0", "ruby", "Demo", ">= 2.7", ["rake (>= 12, < 14)"]]');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

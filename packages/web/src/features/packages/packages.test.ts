import { describe, expect, it } from 'vitest';
import { installCommand } from './components/install-command';
import { renderReadme } from './components/readme';
import { namePattern } from './pages/packages-page';

describe('the Packages pages', () => {
  it('searches names as spec §5 says: a trailing *, and three characters besides * and ?', () => {
    expect(namePattern('')).toEqual({ pattern: '' });
    expect(namePattern('lef')).toEqual({ pattern: 'lef*' });
    expect(namePattern('*pad*')).toEqual({ pattern: '*pad*' });
    expect(namePattern('a*?')).toEqual({ tooShort: true });
    expect(namePattern('ab')).toEqual({ tooShort: true });
  });

  it('renders a readme with its Markdown and without anything active', () => {
    const html = renderReadme(
      '# Title\n\nSome **bold** text and a [link](javascript:alert(3)).\n\n<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">',
    );
    // the page has its h1: the readme's headings come one level below it
    expect(html).toContain('<h2>Title</h2>');
    expect(renderReadme('<h1 class="x">Raw</h1>\n\n###### Six')).toMatch(/^<h2 class="x">Raw<\/h2>\s*<h6>Six<\/h6>/);
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<img src="x"');
    expect(html).not.toMatch(/<script|\son[a-z]+=|href="javascript:/i);
  });

  it('gives install commands for the types the spec lists, and none for the others', () => {
    expect(installCommand('npm', '@acme/app', '1.2.0')).toBe('npm install @acme/app@1.2.0');
    expect(installCommand('pypi', 'my-pkg', '1.0')).toBe('pip install my-pkg==1.0');
    expect(installCommand('maven', 'org.acme:app', '1.0')).toBeUndefined();
    expect(installCommand('debian', 'hello-arca', '1.0.0')).toBe('apt-get install hello-arca=1.0.0');
    expect(installCommand('gems', 'rake', '13.0.6')).toBe('gem install rake -v 13.0.6');
    expect(installCommand('go', 'example.com/acme/lib', 'v0.1.0')).toBe('go get example.com/acme/lib@v0.1.0');
    expect(installCommand('cargo', 'acme-lib', '0.1.0')).toBe('cargo add acme-lib@0.1.0');
  });
});

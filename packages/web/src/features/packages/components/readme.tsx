import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { useMemo } from 'react';
import { Empty } from 'antd';

/**
 * A package's readme as Markdown, sanitised before it reaches the page: scripts, event handlers
 * and other active content are dropped, links open in a new tab without an opener.
 */
export function Readme({ text }: { text: string | null | undefined }) {
  const html = useMemo(() => {
    if (!text?.trim()) return '';
    // code blocks scroll sideways: reachable from the keyboard
    return renderReadme(text)
      .replace(/<a /g, '<a target="_blank" rel="noopener noreferrer" ')
      .replace(/<pre>/g, '<pre tabindex="0">');
  }, [text]);
  if (!html) return <Empty description="This package has no readme." />;
  return <div className="package-readme" data-testid="readme" dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * Raw HTML in Markdown keeps its markup, but its inline event handlers are renamed before any
 * parser sees them: DOMPurify removes them anyway, yet the browser would otherwise report (and
 * block) them while DOMPurify parses the text.
 */
const markdown = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html({ text }) {
      return text.replace(/(\s)on([a-z]+\s*=)/gi, '$1data-blocked-on$2');
    },
  },
});

/**
 * Renders Markdown to sanitised HTML. Its headings sit one level below the page's own (a readme's
 * `# Title` is an h2), so that the page keeps its one h1.
 */
export function renderReadme(text: string): string {
  return DOMPurify.sanitize(markdown.parse(text, { async: false }), { USE_PROFILES: { html: true } }).replace(
    /<(\/?)h([1-5])\b/gi,
    (_, slash: string, level: string) => `<${slash}h${Number(level) + 1}`,
  );
}

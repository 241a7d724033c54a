import type { ReactNode } from 'react';

/**
 * A centred title, text and action for the shell's own failures (server unreachable, a part of the
 * console not loading). Kept free of heavier components: it is part of the entry chunk.
 */
export function FullPageMessage({ title, text, action }: { title: string; text?: ReactNode; action?: ReactNode }) {
  return (
    <main className="arca-error-page" role="alert">
      <div style={{ textAlign: 'center', maxWidth: 520, padding: 24 }}>
        <h1 style={{ fontSize: 22, margin: '0 0 8px', color: '#1f2937' }}>{title}</h1>
        {text && <p style={{ color: 'rgba(0,0,0,0.66)', margin: '0 0 20px' }}>{text}</p>}
        {action}
      </div>
    </main>
  );
}

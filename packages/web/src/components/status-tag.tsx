import { Tag } from 'antd';
import type { ReactNode } from 'react';

export type Tone = 'success' | 'error' | 'warning' | 'info' | 'neutral';

/** Text, background and border of each tone, chosen for at least 4.5:1 contrast (WCAG AA). */
const TONES: Record<Tone, { color: string; background: string; borderColor: string }> = {
  success: { color: '#1d5e06', background: '#f0f9eb', borderColor: '#b7e09f' },
  error: { color: '#9b1c1c', background: '#fff1f0', borderColor: '#ffb8b3' },
  warning: { color: '#7a4a00', background: '#fffbe6', borderColor: '#ffe08a' },
  info: { color: '#163d9c', background: '#eef3ff', borderColor: '#b9cbff' },
  neutral: { color: '#374151', background: '#f3f4f6', borderColor: '#d1d5db' },
};

/** Ant Design's Tag in one of a few accessible tones: use it for every status shown as a tag. */
export function StatusTag({ tone, icon, children }: { tone: Tone; icon?: ReactNode; children: ReactNode }) {
  return (
    <Tag icon={icon} style={TONES[tone]}>
      {children}
    </Tag>
  );
}

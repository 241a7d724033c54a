import { describe, expect, it } from 'vitest';
import { strongest, toggleAction } from './actions';

describe('toggleAction', () => {
  it('grants the weaker actions with a stronger one', () => {
    expect(toggleAction([], 'delete', true)).toEqual(['read', 'annotate', 'deploy', 'delete']);
  });
  it('takes the stronger actions away with a weaker one', () => {
    expect(toggleAction(['read', 'annotate', 'deploy', 'delete', 'manage'], 'annotate', false)).toEqual(['read']);
  });
  it('keeps what was granted when adding', () => {
    expect(toggleAction(['read', 'annotate', 'deploy', 'delete', 'manage'], 'read', true)).toEqual([
      'read',
      'annotate',
      'deploy',
      'delete',
      'manage',
    ]);
  });
  it('names the strongest action', () => {
    expect(strongest(['read', 'deploy'])).toBe('deploy');
    expect(strongest([])).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { isDirty } from './is-dirty';

describe('unsaved-change check', () => {
  it('sees a changed value', () => {
    expect(isDirty({ name: 'a' }, { name: 'b' })).toBe(true);
    expect(isDirty({ list: [1, 2] }, { list: [1, 3] })).toBe(true);
    expect(isDirty({ nested: { x: 1 } }, { nested: { x: 2 } })).toBe(true);
  });
  it('ignores empty-versus-missing differences', () => {
    expect(isDirty({ name: 'a' }, { name: 'a', description: '' })).toBe(false);
    expect(isDirty({ tags: [] }, {})).toBe(false);
    expect(isDirty({ x: null }, { x: undefined })).toBe(false);
    expect(isDirty({ nested: {} }, { nested: { y: '' } })).toBe(false);
  });
  it('ignores internal fields', () => {
    expect(isDirty({ name: 'a', _touched: false }, { name: 'a', _touched: true, $id: 3 })).toBe(false);
  });
  it('sees a value added where there was none', () => {
    expect(isDirty({}, { description: 'new' })).toBe(true);
    expect(isDirty(undefined, { key: 'x' })).toBe(true);
  });
});

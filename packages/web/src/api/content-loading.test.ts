import { describe, expect, it } from 'vitest';
import { createContentLoading } from './content-loading';

describe('content-loading counter', () => {
  it('rises and falls and never goes below zero', () => {
    const counter = createContentLoading();
    counter.increment();
    counter.increment();
    expect(counter.count).toBe(2);
    counter.decrement();
    counter.decrement();
    counter.decrement();
    expect(counter.count).toBe(0);
    counter.increment();
    expect(counter.count).toBe(1);
  });
  it('can be reset and tells its listeners', () => {
    const counter = createContentLoading();
    const seen: number[] = [];
    counter.subscribe(() => seen.push(counter.count));
    counter.increment();
    counter.increment();
    counter.reset();
    expect(seen).toEqual([1, 2, 0]);
  });
});

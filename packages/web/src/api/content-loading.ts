import { useSyncExternalStore } from 'react';

type Listener = () => void;

/** Counts calls in flight for the content-loading indicator; never below zero, resettable. */
export function createContentLoading() {
  let count = 0;
  const listeners = new Set<Listener>();
  const emit = () => listeners.forEach((l) => l());
  return {
    increment() {
      count += 1;
      emit();
    },
    decrement() {
      count = Math.max(0, count - 1);
      emit();
    },
    reset() {
      count = 0;
      emit();
    },
    get count() {
      return count;
    },
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const contentLoading = createContentLoading();

export function useContentLoadingCount(): number {
  return useSyncExternalStore(contentLoading.subscribe, () => contentLoading.count);
}

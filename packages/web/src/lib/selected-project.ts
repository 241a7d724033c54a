import { useSyncExternalStore } from 'react';
import { ALL_PROJECTS_CONTEXT } from '@arca/contracts';

/** The project chosen in the header's selector; 'default' (All) when none. Kept per browser. */
const STORAGE_KEY = 'arca.selectedProject';
const listeners = new Set<() => void>();

function read(): string {
  try {
    return window.localStorage.getItem(STORAGE_KEY) ?? ALL_PROJECTS_CONTEXT.key;
  } catch {
    return ALL_PROJECTS_CONTEXT.key;
  }
}

export function selectProject(key: string): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, key);
  } catch {
    // private mode: the choice lasts for this page only
  }
  listeners.forEach((l) => l());
}

export function useSelectedProject(): string {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    read,
    () => ALL_PROJECTS_CONTEXT.key,
  );
}

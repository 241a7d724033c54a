import { createContext, useContext } from 'react';
import type { UserData } from '@arca/contracts';
import type { MenuContext, MenuItem } from './menu';

/** What the console shell loads once and every page may use. */
export interface StartupData {
  /** The signed-in (or anonymous) user; undefined while loading. */
  user: UserData | undefined;
  /** What decides which menu entries show: admin flag, license, services, features. */
  menu: MenuContext | undefined;
  /** Every entry of the menu, read off the route table. */
  menuItems: MenuItem[];
  /** The server's name for page titles; undefined when it has none. */
  serverName: string | undefined;
  /** An administrator of a deployment with nothing set up, who has not seen Getting Started. */
  needsOnboarding: boolean;
  loading: boolean;
  error: Error | null;
  retry: () => Promise<unknown>;
}

/** Provided by the shell's root route. */
export const StartupContext = createContext<StartupData | null>(null);

export function useStartupData(): StartupData {
  const data = useContext(StartupContext);
  if (!data) throw new Error('useStartupData is used outside the console shell');
  return data;
}

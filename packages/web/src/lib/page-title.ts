import { useContext, useEffect } from 'react';
import { DEFAULT_SERVER_NAME } from '@arca/contracts';
import { StartupContext } from './startup';

/** 'title - server name', with a brand-neutral name when the server has none. */
export function formatTitle(title: string | undefined, serverName: string | undefined): string {
  const server = serverName || DEFAULT_SERVER_NAME;
  return title ? `${title} - ${server}` : server;
}

export function usePageTitle(title: string | undefined): void {
  const serverName = useContext(StartupContext)?.serverName;
  useEffect(() => {
    document.title = formatTitle(title, serverName);
  }, [title, serverName]);
}

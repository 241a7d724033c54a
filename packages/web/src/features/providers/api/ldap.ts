import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  LdapDirectoryGroup,
  LdapGroupSetting,
  LdapGroupSettingBody,
  LdapSetting,
  LdapSettingBody,
  LdapTestBody,
  LdapTestResult,
} from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { createOrReplace } from './save';
import { directoryKeys } from '../../../lib/queries/directory';

export const ldapKeys = {
  settings: ['ldap', 'settings'] as const,
  groups: ['ldap', 'groups'] as const,
  directory: (name: string) => ['ldap', 'directory', name] as const,
};

export function useLdapSettings() {
  return useQuery({ queryKey: ldapKeys.settings, queryFn: () => apiFetch<LdapSetting[]>('ui/ldap/settings') });
}

export function useLdapGroupSettings() {
  return useQuery({ queryKey: ldapKeys.groups, queryFn: () => apiFetch<LdapGroupSetting[]>('ui/ldap/groups') });
}

/** The groups a group setting finds in the directory (asked when the import dialog opens). */
export function useDirectoryGroups(name: string | undefined) {
  return useQuery({
    queryKey: ldapKeys.directory(name ?? ''),
    queryFn: () =>
      apiFetch<LdapDirectoryGroup[]>(`ui/ldap/groups/${encodeURIComponent(name!)}/directory`, { silent: true }),
    enabled: Boolean(name),
    retry: false,
  });
}

export function useLdapActions() {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: ldapKeys.settings }),
      client.invalidateQueries({ queryKey: ldapKeys.groups }),
    ]);
  return {
    save: useMutation({
      mutationFn: ({ body, replaces }: { body: LdapSettingBody; replaces?: string }) =>
        createOrReplace<LdapSetting>('ui/ldap/settings', body, replaces),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (key: string) => apiFetch<void>(`ui/ldap/settings/${encodeURIComponent(key)}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
    test: useMutation({
      mutationFn: (body: LdapTestBody) =>
        apiFetch<LdapTestResult>('ui/ldap/test', { method: 'POST', body, silent: true }),
    }),
    saveGroups: useMutation({
      mutationFn: ({ body, replaces }: { body: LdapGroupSettingBody; replaces?: string }) =>
        createOrReplace<LdapGroupSetting>('ui/ldap/groups', body, replaces),
      onSuccess: refresh,
    }),
    removeGroups: useMutation({
      mutationFn: (name: string) => apiFetch<void>(`ui/ldap/groups/${encodeURIComponent(name)}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
    importGroups: useMutation({
      mutationFn: ({ name, names }: { name: string; names: string[] }) =>
        apiFetch<{ imported: string[] }>(`ui/ldap/groups/${encodeURIComponent(name)}/import`, {
          method: 'POST',
          body: { names },
          silent: true,
        }),
      onSuccess: (_answer, { name }) =>
        Promise.all([
          client.invalidateQueries({ queryKey: ldapKeys.directory(name) }),
          client.invalidateQueries({ queryKey: directoryKeys.groups }),
        ]),
    }),
  };
}

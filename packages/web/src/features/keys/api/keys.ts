import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Certificate,
  CertificateBody,
  KeyPair,
  KeyPairBody,
  KeyStoreEntry,
  KeyStoreImportBody,
  KeyStoreReadBody,
  SshKey,
  SshServer,
  SshServerSettings,
  TrustedKey,
  TrustedKeyBody,
} from '@arca/contracts';
import { apiFetch } from '../../../api/client';

export const keysKeys = {
  pairs: ['keys', 'pairs'] as const,
  signing: ['keys', 'signing'] as const,
};

/** A signing key as the server answers it. */
export interface SigningKey {
  scope: string;
  fingerprint: string;
  keyId: string;
  algorithm: string;
  userId: string;
  publicKey: string;
  source: 'generated' | 'imported';
  created: string;
  createdBy: string;
}

export function useKeyPairs() {
  return useQuery({ queryKey: keysKeys.pairs, queryFn: () => apiFetch<KeyPair[]>('ui/security/keyPairs') });
}

export function useSigningKeys() {
  return useQuery({
    queryKey: keysKeys.signing,
    queryFn: () => apiFetch<{ deployment: SigningKey; repositories: SigningKey[] }>('ui/security/signingKeys'),
  });
}

export function useKeyPairActions() {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: keysKeys.pairs }),
      client.invalidateQueries({ queryKey: keysKeys.signing }),
    ]);
  return {
    create: useMutation({
      mutationFn: (body: KeyPairBody) =>
        apiFetch<KeyPair>('ui/security/keyPairs', { method: 'POST', body, silent: true }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (name: string) =>
        apiFetch<void>(`ui/security/keyPairs/${encodeURIComponent(name)}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
    verify: useMutation({
      mutationFn: (name: string) =>
        apiFetch<{ valid: boolean; message: string }>(`ui/security/keyPairs/${encodeURIComponent(name)}/verify`, {
          method: 'POST',
        }),
    }),
    use: useMutation({
      mutationFn: ({ name, repoKey }: { name: string; repoKey: string }) =>
        apiFetch<SigningKey>(`ui/security/keyPairs/${encodeURIComponent(name)}/use`, {
          method: 'POST',
          body: { repoKey },
        }),
      onSuccess: refresh,
    }),
    removeSigning: useMutation({
      mutationFn: (repoKey: string) =>
        apiFetch<void>(`ui/security/signingKeys/${encodeURIComponent(repoKey)}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
  };
}

export const certificatesKey = ['keys', 'certificates'] as const;

export function useCertificates() {
  return useQuery({ queryKey: certificatesKey, queryFn: () => apiFetch<Certificate[]>('ui/security/certificates') });
}

export function useCertificateActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: certificatesKey });
  return {
    add: useMutation({
      mutationFn: (body: CertificateBody) =>
        apiFetch<Certificate>('ui/security/certificates', { method: 'POST', body, silent: true }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (alias: string) =>
        apiFetch<void>(`ui/security/certificates/${encodeURIComponent(alias)}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
  };
}

export const trustedKeysKey = ['keys', 'trusted'] as const;

export function useTrustedKeys() {
  return useQuery({ queryKey: trustedKeysKey, queryFn: () => apiFetch<TrustedKey[]>('ui/security/trustedKeys') });
}

export function useTrustedKeyActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: trustedKeysKey });
  return {
    add: useMutation({
      mutationFn: (body: TrustedKeyBody) =>
        apiFetch<TrustedKey>('ui/security/trustedKeys', { method: 'POST', body, silent: true }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (kid: string) =>
        apiFetch<void>(`ui/security/trustedKeys/${encodeURIComponent(kid)}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
  };
}

/** Reading a key store and importing its chosen entries (which become certificates). */
export function useKeyStoreActions() {
  const client = useQueryClient();
  return {
    read: useMutation({
      mutationFn: (body: KeyStoreReadBody) =>
        apiFetch<KeyStoreEntry[]>('ui/security/keyStore/entries', { method: 'POST', body, silent: true }),
    }),
    import: useMutation({
      mutationFn: (body: KeyStoreImportBody) =>
        apiFetch<Certificate[]>('ui/security/keyStore/import', { method: 'POST', body, silent: true }),
      onSuccess: () => client.invalidateQueries({ queryKey: certificatesKey }),
    }),
  };
}

export const sshServerKey = ['keys', 'ssh-server'] as const;
export const sshKeysKey = ['keys', 'ssh-keys'] as const;

export function useSshServer() {
  return useQuery({ queryKey: sshServerKey, queryFn: () => apiFetch<SshServer>('ui/security/sshServer') });
}

export function useAllSshKeys() {
  return useQuery({ queryKey: sshKeysKey, queryFn: () => apiFetch<SshKey[]>('ui/security/sshKeys') });
}

export function useSshServerActions() {
  const client = useQueryClient();
  const answered = (server: SshServer) => client.setQueryData(sshServerKey, server);
  return {
    save: useMutation({
      mutationFn: (body: SshServerSettings) =>
        apiFetch<SshServer>('ui/security/sshServer', { method: 'PUT', body, silent: true }),
      onSuccess: answered,
    }),
    replaceHostKey: useMutation({
      mutationFn: (privateKey: string | undefined) =>
        apiFetch<SshServer>('ui/security/sshServer/hostKey', {
          method: 'POST',
          body: privateKey ? { privateKey } : {},
          silent: true,
        }),
      onSuccess: answered,
    }),
    removeKey: useMutation({
      mutationFn: (id: string) => apiFetch<void>(`ui/security/sshKeys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      onSuccess: () =>
        Promise.all([
          client.invalidateQueries({ queryKey: sshKeysKey }),
          client.invalidateQueries({ queryKey: sshServerKey }),
        ]),
    }),
  };
}

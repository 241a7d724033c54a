import { useMutation, useQuery } from '@tanstack/react-query';
import type { ChangePasswordBody, LoginAnswer, MfaEnrollment } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { authKeys } from './keys';

/** Calls of the sign-in flows; every page shows the server's messages itself. */
const silent = true;

export function useMfaEnrollment() {
  return useQuery({
    queryKey: authKeys.mfaEnrollment,
    queryFn: () => apiFetch<MfaEnrollment>('auth/mfa/enroll/', { silent }),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
}

export function useConfirmEnrollment() {
  return useMutation({
    mutationFn: (otp: string) =>
      apiFetch<LoginAnswer | { enrolled: true }>('auth/mfa/enroll/', { method: 'POST', body: { otp }, silent }),
  });
}

export function useVerifyOtp() {
  return useMutation({
    mutationFn: (otp: string) =>
      apiFetch<LoginAnswer>('auth/mfa/verify/', { method: 'POST', body: { otp, authenticator: 'totp' }, silent }),
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (user: string) =>
      apiFetch<{ message: string }>('ui/auth/forgotpassword', { method: 'POST', body: { user }, silent }),
  });
}

export function useValidateResetKey(key: string | null) {
  return useQuery({
    queryKey: authKeys.resetKey(key),
    queryFn: () =>
      apiFetch<{ user: string }>('ui/auth/validatetoken', { method: 'POST', query: { key: key! }, silent }),
    enabled: Boolean(key),
    retry: false,
  });
}

export function useResetPassword(key: string) {
  return useMutation({
    mutationFn: (input: { user: string; password: string }) =>
      apiFetch<{ message: string }>('ui/auth/resetpassword', { method: 'POST', query: { key }, body: input, silent }),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) =>
      apiFetch<LoginAnswer>('ui/auth/changePassword', {
        method: 'POST',
        query: { prefix: 'changePassword' },
        body,
        silent,
      }),
  });
}

export function useInvitation(token: string | null) {
  return useQuery({
    queryKey: authKeys.invitation(token),
    queryFn: () =>
      apiFetch<{ userName: string; email: string }>('access/token/verify', { method: 'POST', body: { token }, silent }),
    enabled: Boolean(token),
    retry: false,
  });
}

export function useAcceptInvitation() {
  return useMutation({
    mutationFn: (input: { token: string; password: string }) =>
      apiFetch<{ message: string }>('access/entities/users/invited/setPassword', {
        method: 'POST',
        body: input,
        silent,
      }),
  });
}

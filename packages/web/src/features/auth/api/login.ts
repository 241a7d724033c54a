import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { isMfaChallenge, type LoginAnswer, type LoginBody, type UserData } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { landingPath } from '../../../lib/landing';
import { takePathAfterLogin } from '../../../lib/post-login-path';
import { currentUserKey } from './get-current-user';
import { authKeys } from './keys';

export function login(body: Omit<LoginBody, 'type'>, rememberMe: boolean): Promise<LoginAnswer> {
  return apiFetch<LoginAnswer>('ui/auth/login', {
    method: 'POST',
    body: { ...body, type: 'login' },
    query: { _spring_security_remember_me: rememberMe ? 'true' : undefined },
    // the login page lists the server's messages itself
    silent: true,
  });
}

/**
 * The after-login steps of spec part 1 §4: forget what the anonymous user had cached, set the
 * user data, then go to the remembered path or the landing page.
 */
export function useAfterLogin() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return (user: UserData) => {
    client.removeQueries({
      predicate: (q) => q.queryKey[0] !== authKeys.current[0] || q.queryKey[1] !== authKeys.current[1],
    });
    client.setQueryData(currentUserKey, user);
    // an administrator's landing depends on the services running: the guard of '/' decides it
    navigate(takePathAfterLogin(user.admin) ?? (user.admin ? '/' : landingPath(user)), { replace: true });
  };
}

/** Where a login answer leads: signed in, or on to the second factor. */
export function useLoginAnswer() {
  const afterLogin = useAfterLogin();
  const navigate = useNavigate();
  return (answer: LoginAnswer) => {
    if (!isMfaChallenge(answer)) return afterLogin(answer);
    navigate(answer.mfaStatus === 'enroll' ? '/login/mfa-enroll' : '/login/otp-login', {
      state: { userName: answer.userName },
    });
  };
}

export function useLogin() {
  return useMutation({
    mutationFn: (input: { user: string; password: string; rememberMe: boolean }) =>
      login({ user: input.user, password: input.password }, input.rememberMe),
  });
}

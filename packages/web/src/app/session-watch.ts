import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { IDLE_CHECK_MS, isAnonymousName } from '@arca/contracts';
import { currentUserKey, getCurrentUser } from '../features/auth/api/get-current-user';

const ACTIVITY_EVENTS = ['mousedown', 'keydown', 'touchstart', 'wheel'] as const;

/**
 * After 60 s without activity, the next activity checks the session again: an ended session goes to
 * login (logout and fromUnauthorized flags); a different user is handled by the root.
 */
export function useIdleSessionCheck(enabled: boolean) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const lastActivity = useRef(0);
  useEffect(() => {
    if (!enabled) return;
    lastActivity.current = Date.now();
    const onActivity = () => {
      const now = Date.now();
      const idle = now - lastActivity.current;
      lastActivity.current = now;
      if (idle < IDLE_CHECK_MS) return;
      getCurrentUser({ background: true })
        .then((user) => {
          if (isAnonymousName(user.name) && !user.anonAccessEnabled) {
            // the login page's logout flag clears what is cached for the old session
            navigate('/login?logout=true&fromUnauthorized=true', { replace: true });
          } else {
            client.setQueryData(currentUserKey, user);
          }
        })
        .catch(() => undefined);
    };
    const onVisible = () => document.visibilityState === 'visible' && onActivity();
    ACTIVITY_EVENTS.forEach((e) => window.addEventListener(e, onActivity, { passive: true }));
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      ACTIVITY_EVENTS.forEach((e) => window.removeEventListener(e, onActivity));
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [enabled, client, navigate]);
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OnboardingInput, OnboardingState, QuickSetupAnswer, QuickSetupBody } from '@arca/contracts';
import { GETTING_STARTED_SEEN } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { repositoriesKeys } from '../../../lib/queries/repositories';

export const onboardingKeys = {
  state: ['onboarding', 'state'] as const,
};

/** What the console decides the wizard and the quick setup on (`GET /system/onboarding`). */
export function useOnboardingState(enabled = true) {
  return useQuery({
    queryKey: onboardingKeys.state,
    queryFn: () => apiFetch<OnboardingState>('system/onboarding', { silent: true }),
    enabled,
    staleTime: 30_000,
  });
}

/** Marks Getting Started seen in the user's custom data. */
export function useMarkGettingStartedSeen() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<void>(`ui/userCustomData/${GETTING_STARTED_SEEN}`, {
        method: 'PUT',
        body: { value: true },
        silent: true,
      }),
    // seen at once: leaving the wizard right away does not bring the user back to it
    onMutate: () =>
      client.setQueryData<OnboardingState>(onboardingKeys.state, (state) =>
        state ? { ...state, gettingStartedSeen: true } : state,
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: onboardingKeys.state }),
  });
}

/** Sends the personalisation (`POST /system/onboarding`). */
export function useSendOnboarding() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (data: OnboardingInput) =>
      apiFetch<void>('system/onboarding', { method: 'POST', body: data, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: onboardingKeys.state }),
  });
}

/** Local, remote and virtual repositories per package type (`POST ui/onboarding/createDefaultRepos`). */
export function useQuickSetup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: QuickSetupBody) =>
      apiFetch<QuickSetupAnswer>('ui/onboarding/createDefaultRepos', { method: 'POST', body, silent: true }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: onboardingKeys.state }),
        client.invalidateQueries({ queryKey: repositoriesKeys.all }),
      ]),
  });
}

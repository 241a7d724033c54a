/** What other parts of the console use of the onboarding feature: they import this module only. */
export { useMarkGettingStartedSeen, useOnboardingState } from './api/onboarding';

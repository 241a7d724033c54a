/** What the composition root uses of the onboarding feature. */
export { onboardingRoutes } from './onboarding.routes.js';

import { z } from 'zod';

/**
 * The onboarding wizard and quick setup (spec part 1 §2, §3 Onboarding, §4 onboarding steps,
 * §5 onboarding rules): what an administrator uses Arca for, then the package types that the
 * quick setup makes repositories for.
 */
export const ONBOARDING_PURPOSES = ['Commercial', 'Personal'] as const;
export const ONBOARDING_ROLES = ['DevOps Engineer', 'Software Developer', 'DevSecOps Engineer', 'Other'] as const;
export const ONBOARDING_FEATURES = [
  'Binary management',
  'Team Administration',
  'Single Sign On',
  'Vulnerabilities Scanning',
  'License Compliance Checks',
  'CI/CD',
  'Container Registry',
  'SBOM',
] as const;
/** The wizard's steps, in order; each has a completion flag and a validity rule. */
export const ONBOARDING_STEPS = ['init', 'purpose', 'details', 'desiredFeatures'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

/** The package types the quick setup offers, in the order it shows them. */
export const QUICK_SETUP_TYPES = [
  'docker',
  'npm',
  'maven',
  'pypi',
  'go',
  'helm',
  'cargo',
  'gems',
  'debian',
  'rpm',
  'generic',
] as const;

/** The key of the console's local copy of the personalisation, removed once the server has it. */
export const ONBOARDING_STORAGE_KEY = 'arca.onboarding';

export const ONBOARDING_MESSAGES = {
  purposeRequired: 'Select what you use the platform for.',
  roleRequired: 'Select your role.',
  otherRoleRequired: 'Describe your role.',
  companyRequired: 'Enter your company name.',
  featureRequired: 'Select at least one feature.',
  packageTypeRequired: 'Select at least one package type.',
  /** {types} is replaced. */
  alreadySetUp: 'Repositories for {types} exist already.',
} as const;

export const onboardingDataSchema = z.object({
  purpose: z.enum(ONBOARDING_PURPOSES).optional(),
  companyName: z.string().trim().max(200).default(''),
  ossProjectName: z.string().trim().max(200).default(''),
  role: z.enum(ONBOARDING_ROLES).optional(),
  otherRole: z.string().trim().max(200).default(''),
  desiredFeature: z.array(z.enum(ONBOARDING_FEATURES)).default([]),
});
export type OnboardingData = z.output<typeof onboardingDataSchema>;
export type OnboardingInput = z.input<typeof onboardingDataSchema>;

/** Which fields of a step are wrong, with the message for each (empty when the step is valid). */
export function onboardingStepErrors(step: OnboardingStep, data: OnboardingInput): Record<string, string> {
  const errors: Record<string, string> = {};
  if (step === 'purpose' && !data.purpose) errors.purpose = ONBOARDING_MESSAGES.purposeRequired;
  if (step === 'details') {
    if (!data.role) errors.role = ONBOARDING_MESSAGES.roleRequired;
    if (data.role === 'Other' && !data.otherRole?.trim()) errors.otherRole = ONBOARDING_MESSAGES.otherRoleRequired;
    if (data.purpose === 'Commercial' && !data.companyName?.trim()) {
      errors.companyName = ONBOARDING_MESSAGES.companyRequired;
    }
  }
  if (step === 'desiredFeatures' && !data.desiredFeature?.length) {
    errors.desiredFeature = ONBOARDING_MESSAGES.featureRequired;
  }
  return errors;
}

/** Whether a step is valid (init always is). */
export function onboardingStepValid(step: OnboardingStep, data: OnboardingInput): boolean {
  return Object.keys(onboardingStepErrors(step, data)).length === 0;
}

/** The first message of a whole personalisation that breaks a rule, or undefined. */
export function onboardingError(data: OnboardingInput): string | undefined {
  for (const step of ONBOARDING_STEPS) {
    const first = Object.values(onboardingStepErrors(step, data))[0];
    if (first) return first;
  }
  return undefined;
}

/** `GET /system/onboarding`: what the console needs to decide on the wizard and quick setup. */
export const onboardingStateSchema = z.object({
  /** The caller saw the Getting Started wizard (kept in the user's custom data). */
  gettingStartedSeen: z.boolean(),
  /** The caller sent the personalisation. */
  completed: z.boolean(),
  /** An administrator whose deployment holds no repository of its own yet. */
  needsOnboarding: z.boolean(),
  /** Repositories on the deployment (system ones excluded). */
  repositoryCount: z.number().int(),
  /** Package types the quick setup offers, with whether their repositories exist. */
  packageTypes: z.array(
    z.object({
      type: z.string(),
      label: z.string(),
      /** The virtual repository the quick setup would make (the type's name). */
      repositoryKey: z.string(),
      exists: z.boolean(),
      /** The public registry its remote repository proxies; empty when the type has none. */
      upstream: z.string(),
    }),
  ),
  defaultProject: z.object({ key: z.string(), name: z.string() }),
});
export type OnboardingState = z.infer<typeof onboardingStateSchema>;

/** `POST /ui/onboarding/createDefaultRepos`: local, remote and virtual repositories per package type. */
export const quickSetupBodySchema = z.object({
  packageTypes: z.array(z.string().min(1)).min(1, ONBOARDING_MESSAGES.packageTypeRequired).max(30),
  /** Put the repositories in the default project ('Default Project', key 'dflt'), made when missing. */
  inDefaultProject: z.boolean().default(false),
});
export type QuickSetupBody = z.input<typeof quickSetupBodySchema>;

export const quickSetupAnswerSchema = z.object({
  repositories: z.array(
    z.object({ key: z.string(), rclass: z.enum(['local', 'remote', 'virtual']), packageType: z.string() }),
  ),
  project: z.string().nullable(),
});
export type QuickSetupAnswer = z.infer<typeof quickSetupAnswerSchema>;

/** Values kept per user for the console (`ui/userCustomData`): short JSON texts by name. */
export const USER_CUSTOM_DATA_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9._-]{0,63}$/;
export const userCustomDataSchema = z.record(z.string(), z.unknown());
export const userCustomDataBodySchema = z.object({ value: z.unknown() });

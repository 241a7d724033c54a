import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

/** Project roles: what members may do with the project's repositories, weakest first. */
export const PROJECT_ROLES = ['viewer', 'developer', 'admin'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];
export const PROJECT_ROLE_LABELS: Record<ProjectRole, string> = {
  viewer: 'Viewer',
  developer: 'Developer',
  admin: 'Project Admin',
};
export const PROJECT_ROLE_DESCRIPTIONS: Record<ProjectRole, string> = {
  viewer: 'Reads the project’s repositories',
  developer: 'Reads, annotates and deploys to the project’s repositories',
  admin: 'Everything on the project’s repositories, and manages its members and repositories',
};

/** Spec part 2 §9: the default project, and the context meaning "all projects". */
export const DEFAULT_PROJECT = { key: 'dflt', name: 'Default Project' } as const;
export const ALL_PROJECTS_CONTEXT = { key: 'default', displayName: 'All' } as const;
export const PROJECT_KEY_MAX = 128;
/** Spec part 1 §5: starts with a lowercase letter; then lowercase letters and digits. */
export const PROJECT_KEY_PATTERN = /^[a-z][a-z0-9]*$/;

export const PROJECT_MESSAGES = {
  keyFormat: 'A project key starts with a lowercase letter and has only lowercase letters and digits.',
  keyLength: `A project key has at most ${PROJECT_KEY_MAX} characters.`,
  keyTaken: "A project with the key '{name}' already exists.",
  notFound: "Project '{name}' was not found.",
  nameRequired: ERROR_MESSAGES.mandatory,
  createFailed: 'Failed to create a project',
  defaultProject: 'The default project cannot be deleted.',
  notProjectAdmin: 'Only administrators and admins of this project may change it.',
  repoInOtherProject: "Repository '{name}' belongs to project '{project}'.",
  repoKeyPrefix: "A project repository's key starts with the project key and a dash: '{project}-'.",
} as const;

export const projectMemberSchema = z.object({
  name: z.string().min(1).max(64),
  type: z.enum(['user', 'group']),
  role: z.enum(PROJECT_ROLES),
});
export type ProjectMember = z.infer<typeof projectMemberSchema>;

export const projectSchema = z.object({
  projectKey: z.string(),
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  isCurrentUserProjectAdmin: z.boolean(),
  repositories: z.array(z.string()),
  members: z.array(projectMemberSchema),
  createdAt: z.string(),
});
export type Project = z.infer<typeof projectSchema>;

export const projectFormSchema = z.object({
  projectKey: z
    .string()
    .min(1, PROJECT_MESSAGES.nameRequired)
    .max(PROJECT_KEY_MAX, PROJECT_MESSAGES.keyLength)
    .regex(PROJECT_KEY_PATTERN, PROJECT_MESSAGES.keyFormat),
  displayName: z.string().trim().min(1, PROJECT_MESSAGES.nameRequired).max(256),
  description: z.string().max(2048).default(''),
});
export type ProjectForm = z.input<typeof projectFormSchema>;

export const projectMembersBodySchema = z.object({ members: z.array(projectMemberSchema) });

/** `POST /projects/resources/assign`: put repositories in a project (or take them out with null). */
export const assignResourcesSchema = z.object({
  projectKey: z.string().max(PROJECT_KEY_MAX).nullable(),
  repositories: z.array(z.string().min(1)).min(1, ERROR_MESSAGES.mandatory),
});

/** A project admin creates a local repository in the project (its key starts with '{projectKey}-'). */
export const projectRepositorySchema = z.object({
  key: z.string().min(1, PROJECT_MESSAGES.nameRequired).max(64),
  packageType: z.string().min(1).default('generic'),
  description: z.string().max(2000).default(''),
});
export type ProjectRepositoryForm = z.input<typeof projectRepositorySchema>;

export type ProjectSection = 'general' | 'members' | 'repositories';

/** The pages of the Project Settings sidebar. */
export const PROJECT_SECTIONS: { key: ProjectSection; label: string }[] = [
  { key: 'general', label: 'General' },
  { key: 'members', label: 'Members' },
  { key: 'repositories', label: 'Repositories' },
];

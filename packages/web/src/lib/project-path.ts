/** The application's home, where a user who leaves a project's settings lands. */
const APPLICATION_HOME = '/overview';

/**
 * Where a project selection leads from `pathname`: the same section of the newly selected
 * project when the user is in a project's settings (and may administer the new one), otherwise
 * nowhere (undefined): the user stays in the area they were in.
 */
export function pathForProject(pathname: string, projectKey: string, projectAdmin: boolean): string | undefined {
  const section = /^\/projects\/[^/]+\/?(.*)$/.exec(pathname);
  if (!section) return undefined;
  return projectAdmin ? `/projects/${encodeURIComponent(projectKey)}/${section[1] || 'general'}` : APPLICATION_HOME;
}

import { Alert, Button } from 'antd';
import { ALL_PROJECTS_CONTEXT } from '@arca/contracts';
import { selectProject, useSelectedProject } from '../lib/selected-project';

/** Says that a list shows one project's repositories only, with the way back to all of them. */
export function ProjectScopeNote({ what }: { what: string }) {
  const projectKey = useSelectedProject();
  if (projectKey === ALL_PROJECTS_CONTEXT.key) return null;
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 16 }}
      title={`Showing ${what} of project ${projectKey} only`}
      action={
        <Button size="small" onClick={() => selectProject(ALL_PROJECTS_CONTEXT.key)}>
          Show all
        </Button>
      }
    />
  );
}

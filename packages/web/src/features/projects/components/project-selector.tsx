import { ProjectOutlined } from '@ant-design/icons';
import { Select } from 'antd';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { pathForProject } from '../../../lib/project-path';
import { ALL_PROJECTS_CONTEXT } from '@arca/contracts';
import { useProjects } from '../api/projects';
import { selectProject, useSelectedProject } from '../../../lib/selected-project';

/** The header's project selector: All, or one of the projects the user belongs to. */
export function ProjectSelector() {
  const projects = useProjects();
  const selected = useSelectedProject();
  const navigate = useNavigate();
  const location = useLocation();
  const known = projects.data?.some((p) => p.projectKey === selected);
  // a project that was deleted, or that the user left, falls back to All
  useEffect(() => {
    if (projects.data && selected !== ALL_PROJECTS_CONTEXT.key && !known) selectProject(ALL_PROJECTS_CONTEXT.key);
  }, [projects.data, selected, known]);
  if (!projects.data?.length) return null;
  return (
    <Select
      aria-label="Project"
      showSearch={{ optionFilterProp: 'label' }}
      value={known ? selected : ALL_PROJECTS_CONTEXT.key}
      style={{ width: 200 }}
      suffixIcon={<ProjectOutlined />}
      onChange={(key: string) => {
        selectProject(key);
        const project = projects.data.find((p) => p.projectKey === key);
        // the user stays where he is; in a project's settings, he moves to the same page of the new one
        const next = pathForProject(location.pathname, key, Boolean(project?.isCurrentUserProjectAdmin));
        if (next) navigate(next);
      }}
      options={[
        { value: ALL_PROJECTS_CONTEXT.key, label: `${ALL_PROJECTS_CONTEXT.displayName} projects` },
        ...projects.data.map((p) => ({ value: p.projectKey, label: p.displayName })),
      ]}
    />
  );
}

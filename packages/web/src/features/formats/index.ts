import { buildInfoSnippets } from './build-info/set-me-up';
import { cargoSnippets } from './cargo/set-me-up';
import { debianSnippets } from './debian/set-me-up';
import { dockerSnippets } from './docker/set-me-up';
import { gemsSnippets } from './gems/set-me-up';
import { genericSnippets } from './generic/set-me-up';
import { goSnippets } from './go/set-me-up';
import { helmSnippets } from './helm/set-me-up';
import { terraformSnippets } from './terraform/set-me-up';
import { mavenSnippets } from './maven/set-me-up';
import { npmSnippets } from './npm/set-me-up';
import { pypiSnippets } from './pypi/set-me-up';
import { rpmSnippets } from './rpm/set-me-up';
import type { SetMeUpTarget, Snippet } from './snippet';

export type { SetMeUpTarget, Snippet } from './snippet';
export { buildInfoSnippets };

/** The console's side of a package format (the server's is `server/src/formats/<type>/`). */
interface ConsoleFormat {
  types: readonly string[];
  snippets: (target: SetMeUpTarget) => Snippet[];
  /** Files deployed one by one, whose builds are published as build info (`jf rt upload` and `PUT /api/build`). */
  buildInfo?: boolean;
}

/** Every format the server speaks, in one list, as on the server. */
const FORMATS: readonly ConsoleFormat[] = [
  { types: ['generic'], snippets: genericSnippets, buildInfo: true },
  { types: ['docker', 'oci'], snippets: dockerSnippets },
  { types: ['go'], snippets: goSnippets },
  { types: ['cargo'], snippets: cargoSnippets },
  { types: ['helm'], snippets: helmSnippets },
  { types: ['debian'], snippets: debianSnippets },
  { types: ['rpm'], snippets: rpmSnippets },
  { types: ['gems'], snippets: gemsSnippets },
  { types: ['maven', 'gradle'], snippets: mavenSnippets, buildInfo: true },
  { types: ['npm'], snippets: npmSnippets },
  { types: ['pypi'], snippets: pypiSnippets },
  { types: ['terraform'], snippets: terraformSnippets },
];

/**
 * What Set Me Up shows for a repository of this package type. A type no format serves yet holds
 * generic files: its snippets are the generic ones, and `served` says so, so that the dialog
 * does not promise a client protocol the server does not speak.
 */
export function setMeUp(packageType: string, target: SetMeUpTarget): { served: boolean; snippets: Snippet[] } {
  const format = FORMATS.find((f) => f.types.includes(packageType));
  if (!format) return { served: false, snippets: [...genericSnippets(target), ...buildInfoSnippets(target)] };
  return {
    served: true,
    snippets: [...format.snippets(target), ...(format.buildInfo ? buildInfoSnippets(target) : [])],
  };
}

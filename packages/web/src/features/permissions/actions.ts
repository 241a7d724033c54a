import { PERMISSION_ACTIONS, type PermissionAction } from '@arca/contracts';

/**
 * Toggles one action the way administrators expect: granting an action grants the weaker ones
 * (delete brings deploy, annotate and read); taking one away takes the stronger ones too.
 */
export function toggleAction(current: PermissionAction[], action: PermissionAction, on: boolean): PermissionAction[] {
  const rank = PERMISSION_ACTIONS.indexOf(action);
  return PERMISSION_ACTIONS.filter((a, i) => {
    if (on) return i <= rank || current.includes(a);
    return i < rank && current.includes(a);
  });
}

/** The strongest action, to summarise a principal's rights in one word. */
export function strongest(actions: PermissionAction[]): PermissionAction | undefined {
  return [...PERMISSION_ACTIONS].reverse().find((a) => actions.includes(a));
}

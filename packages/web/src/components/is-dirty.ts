/** Internal fields (leading `_` or `$`) never count as a change. */
const isInternal = (key: string) => key.startsWith('_') || key.startsWith('$');

/** Empty string, null, undefined and empty arrays are all "nothing". */
function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * Whether a form's values differ from what it started with. Empty-versus-missing differences and
 * internal fields are ignored (spec part 1 §2, unsaved changes).
 */
export function isDirty(initial: unknown, current: unknown): boolean {
  if (isEmpty(initial) && isEmpty(current)) return false;
  if (Array.isArray(initial) && Array.isArray(current)) {
    return initial.length !== current.length || initial.some((v, i) => isDirty(v, current[i]));
  }
  if (isPlainObject(initial) && isPlainObject(current)) {
    const keys = new Set([...Object.keys(initial), ...Object.keys(current)]);
    for (const key of keys) {
      if (!isInternal(key) && isDirty(initial[key], current[key])) return true;
    }
    return false;
  }
  if (isPlainObject(initial) || isPlainObject(current)) {
    const object = (isPlainObject(initial) ? initial : current) as Record<string, unknown>;
    const other = isPlainObject(initial) ? current : initial;
    return !isEmpty(other) || Object.entries(object).some(([k, v]) => !isInternal(k) && !isEmpty(v));
  }
  return !Object.is(initial, current);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

import {
  DURATION_UNITS,
  EXPIRATION_UNITS,
  POLICY_DEFAULTS,
  type Age,
  type ArchivePolicy,
  type ArchivePolicyBody,
  type SearchCriteriaForm,
} from '@arca/contracts';

/** A retention policy's form values, and how they come from and go to the calls' bodies. */

type DurationUnit = keyof typeof DURATION_UNITS;
type ExpirationUnit = keyof typeof EXPIRATION_UNITS;
export interface Group {
  operator: 'and' | 'or';
  repositories: string[];
  paths: string[];
  names: string[];
  /** `key=value` (or `key` alone: any value). */
  properties: string[];
}
export interface Values {
  key: string;
  description: string;
  cronExp: string;
  enabled: boolean;
  limitDuration: boolean;
  duration: number;
  durationUnit: DurationUnit;
  deleteFromArchive: boolean;
  expiration: number;
  expirationUnit: ExpirationUnit;
  skipTrashcan: boolean;
  basis: 'form' | 'aql';
  aqlQuery: string;
  include: Group;
  exclude: Group;
  createdBefore: boolean;
  created: Age;
  downloadedBefore: boolean;
  downloaded: Age;
}

const EMPTY_GROUP: Group = { operator: 'and', repositories: [], paths: [], names: [], properties: [] };
const SIX_MONTHS: Age = { value: 6, unit: 'months' };
export const EMPTY: Values = {
  key: '',
  description: '',
  cronExp: '0 0 2 * * ?',
  enabled: true,
  limitDuration: POLICY_DEFAULTS.durationInMinutes > 0,
  duration: 60,
  durationUnit: 'minutes',
  deleteFromArchive: POLICY_DEFAULTS.expirationTimeInMonths > 0,
  expiration: 12,
  expirationUnit: 'months',
  skipTrashcan: false,
  basis: 'form',
  aqlQuery: '',
  include: EMPTY_GROUP,
  exclude: { ...EMPTY_GROUP, operator: 'or' },
  createdBefore: false,
  created: SIX_MONTHS,
  downloadedBefore: true,
  downloaded: SIX_MONTHS,
};

/** The largest unit a number of base units is a whole multiple of. */
function inUnits<U extends string>(amount: number, units: Record<U, number>): { value: number; unit: U } {
  const entries = (Object.entries(units) as [U, number][]).sort((a, b) => b[1] - a[1]);
  const [unit, size] = entries.find(([, size]) => amount % size === 0) ?? entries.at(-1)!;
  return { value: amount / size, unit };
}

const groupOf = (group: SearchCriteriaForm['include']): Group => ({
  ...group,
  properties: group.properties.map((p) => (p.value ? `${p.key}=${p.value}` : p.key)),
});
const groupBody = (group: Group) => ({
  ...group,
  properties: group.properties.map((text) => {
    const at = text.indexOf('=');
    return at < 0 ? { key: text.trim(), value: '' } : { key: text.slice(0, at).trim(), value: text.slice(at + 1) };
  }),
});

export function valuesOf(policy: ArchivePolicy): Values {
  const duration = inUnits(policy.durationInMinutes || 60, DURATION_UNITS);
  const expiration = inUnits(policy.expirationTimeInMonths || 12, EXPIRATION_UNITS);
  const form = policy.searchCriteriaForm;
  return {
    ...EMPTY,
    key: policy.key,
    description: policy.description,
    cronExp: policy.cronExp,
    enabled: policy.enabled,
    limitDuration: policy.durationInMinutes > 0,
    duration: duration.value,
    durationUnit: duration.unit,
    deleteFromArchive: policy.expirationTimeInMonths > 0,
    expiration: expiration.value,
    expirationUnit: expiration.unit,
    skipTrashcan: policy.skipTrashcan,
    basis: policy.basis,
    aqlQuery: policy.aqlQuery,
    ...(form
      ? {
          include: groupOf(form.include),
          exclude: groupOf(form.exclude),
          createdBefore: form.createdBefore !== null,
          created: form.createdBefore ?? SIX_MONTHS,
          downloadedBefore: form.downloadedBefore !== null,
          downloaded: form.downloadedBefore ?? SIX_MONTHS,
        }
      : {}),
  };
}

export function criteriaOf(v: Values): SearchCriteriaForm {
  return {
    include: groupBody(v.include),
    exclude: groupBody(v.exclude),
    createdBefore: v.createdBefore ? v.created : null,
    downloadedBefore: v.downloadedBefore ? v.downloaded : null,
  };
}

export function bodyOf(v: Values): ArchivePolicyBody {
  return {
    key: v.key.trim(),
    description: v.description,
    cronExp: v.cronExp.trim(),
    enabled: v.enabled,
    durationInMinutes: v.limitDuration ? v.duration * DURATION_UNITS[v.durationUnit] : 0,
    expirationTimeInMonths: v.deleteFromArchive ? v.expiration * EXPIRATION_UNITS[v.expirationUnit] : 0,
    skipTrashcan: v.skipTrashcan,
    ...(v.basis === 'aql' ? { aqlQuery: v.aqlQuery, searchCriteriaForm: null } : { searchCriteriaForm: criteriaOf(v) }),
  };
}

import { licenseLogoGroup, type Footer } from '@arca/contracts';

export type LogoChoice = { kind: 'url'; src: string } | { kind: 'edition'; group: ReturnType<typeof licenseLogoGroup> };

/** The user-uploaded logo, else the footer logo URL, else the edition's default. */
export function chooseLogo(footer: Pick<Footer, 'userLogo' | 'logoUrl' | 'license'> | undefined): LogoChoice {
  if (footer?.userLogo) return { kind: 'url', src: footer.userLogo };
  if (footer?.logoUrl) return { kind: 'url', src: footer.logoUrl };
  return { kind: 'edition', group: licenseLogoGroup(footer?.license) };
}

const EDITION_LOGOS = {
  default: { accent: '#8fb3ff', label: '' },
  oss: { accent: '#7ee2a8', label: 'OSS' },
  jcr: { accent: '#7fd6f5', label: 'Container Registry' },
  conan: { accent: '#c9b3ff', label: 'Conan' },
  edge: { accent: '#ffc97a', label: 'Edge' },
} as const;

/** The product mark with the edition's accent and label. */
export function EditionLogo({
  group,
  height = 28,
  dark = false,
  name = 'Arca',
}: {
  group: keyof typeof EDITION_LOGOS;
  height?: number;
  dark?: boolean;
  /** The server's name (General Settings), shown beside the mark; "Arca" by default. */
  name?: string;
}) {
  const { accent, label } = EDITION_LOGOS[group];
  const text = dark ? '#ffffff' : '#0f1f3d';
  return (
    <span
      style={{ display: 'inline-flex', alignItems: 'center', gap: 8, height }}
      aria-label={`${name} ${label}`.trim()}
      role="img"
    >
      <svg viewBox="0 0 32 32" width={height} height={height} aria-hidden="true">
        <rect width="32" height="32" rx="7" fill="#1f4fd1" />
        <path d="M8 23 16 7l8 16h-4.2L16 15.2 12.2 23z" fill="#fff" />
        <rect x="13" y="19" width="6" height="2.4" rx="1" fill={accent} />
      </svg>
      <span style={{ color: text, fontWeight: 700, fontSize: height * 0.6, letterSpacing: 0.3, whiteSpace: 'nowrap' }}>
        {name}
      </span>
      {label && (
        <span style={{ color: dark ? accent : '#4a5568', fontSize: height * 0.42, fontWeight: 600 }}>{label}</span>
      )}
    </span>
  );
}

export function Logo({
  footer,
  height,
  dark,
}: {
  footer: (Parameters<typeof chooseLogo>[0] & { serverName?: string }) | undefined;
  height?: number;
  dark?: boolean;
}) {
  // one brand everywhere: the server name of General Settings, "Arca" until one is set
  const name = footer?.serverName?.trim() || 'Arca';
  const choice = chooseLogo(footer);
  if (choice.kind === 'url') return <img src={choice.src} alt={name} style={{ height: height ?? 28 }} />;
  return <EditionLogo group={choice.group} height={height} dark={dark} name={name} />;
}

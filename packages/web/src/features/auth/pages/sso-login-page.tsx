import { Alert, Spin } from 'antd';
import { useEffect } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { AuthCard } from '../components/auth-card';
import { providerHref, useLoginProviders } from '../api/login-providers';

/**
 * `/login/sso/:ssoLoginType` (`oidc` or `saml`): straight to the provider of that type —
 * the one `?provider=` names, else the first — as a bookmark or an intranet link would go.
 */
export function SsoLoginPage() {
  const { ssoLoginType } = useParams();
  const [params] = useSearchParams();
  const providers = useLoginProviders();
  const wanted = params.get('provider');
  const provider = providers.data?.find((p) => p.type === ssoLoginType && (!wanted || p.name === wanted));
  useEffect(() => {
    if (provider) window.location.assign(providerHref(provider.url));
  }, [provider]);
  return (
    <AuthCard title="Single sign-on">
      {providers.isPending || provider ? (
        <div style={{ textAlign: 'center', padding: 24 }}>
          <Spin /> <div style={{ marginTop: 12 }}>Going to your identity provider…</div>
        </div>
      ) : (
        <Alert
          type="warning"
          showIcon
          title="No identity provider of this kind is set up."
          description={<Link to="/login?local=true">Sign in with a user name and password</Link>}
        />
      )}
    </AuthCard>
  );
}

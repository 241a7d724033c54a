import { LockOutlined, LoginOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Divider, Flex, Form, Input, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { AUTH_ERROR_CODES, isAnonymousName, loginBodySchema, type UserData } from '@arca/contracts';
import { apiFetch, type ApiError } from '../../../api/client';
import { ErrorList } from '../../../components/error-list';
import { landingPath } from '../../../lib/landing';
import { Logo } from '../../../components/logo';
import { usePageTitle } from '../../../lib/page-title';
import { takePathAfterLogin } from '../../../lib/post-login-path';
import { currentUserKey, useCurrentUser } from '../api/get-current-user';
import { useFooter } from '../api/get-footer';
import { useLoginRelatedData } from '../api/get-login-related-data';
import { providerHref, useLoginProviders } from '../api/login-providers';
import { useLogin, useLoginAnswer } from '../api/login';
import { errorCode } from '../components/auth-card';
import { logout } from '../api/logout';
import { useServerErrors } from '../../../lib/server-errors';
import { authKeys } from '../api/keys';
import { schemaField } from '../../../lib/schema-rules';

interface LoginForm {
  user: string;
  password: string;
  rememberMe: boolean;
}

/**
 * Logs out once when the page is opened with the logout flag. A visitor already known to be
 * anonymous has no session to end, so the form is ready at once.
 */
function useLogoutFlag(active: boolean) {
  const client = useQueryClient();
  const [done, setDone] = useState(() => {
    const known = client.getQueryData<UserData>(currentUserKey);
    return !active || (known !== undefined && isAnonymousName(known.name));
  });
  const started = useRef(false);
  useEffect(() => {
    if (!active || done || started.current) return;
    started.current = true;
    // a SAML user's browser goes on to the identity provider's logout service (spec part 1 §2)
    let samlLogout = '';
    apiFetch<{ logoutUrl: string }>('ui/auth/samlLogoutUrl', { silent: true })
      .then((answer) => (samlLogout = answer.logoutUrl))
      .catch(() => undefined)
      .then(() => logout())
      .catch(() => undefined)
      .finally(() => {
        if (samlLogout) {
          window.location.assign(samlLogout);
          return;
        }
        client.removeQueries({
          predicate: (q) => q.queryKey[1] !== authKeys.loginRelatedData[1] && q.queryKey[1] !== authKeys.footer[1],
        });
        void client.invalidateQueries({ queryKey: authKeys.footer });
        setDone(true);
      });
  }, [active, done, client]);
  return done;
}

export function LoginPage() {
  usePageTitle('Login');
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const logoutFlag = params.get('logout') === 'true';
  const loggedOut = useLogoutFlag(logoutFlag);
  const current = useCurrentUser();
  const related = useLoginRelatedData();
  const providers = useLoginProviders();
  const footer = useFooter();
  const ssoError = params.get('ssoError');
  // one provider is the way in: everyone goes there, unless asked for the local form (?local=true)
  // or coming back from a failed or ended sign-in
  const autoRedirect =
    related.data?.ssoProviderLink && params.get('local') !== 'true' && !logoutFlag && !ssoError
      ? related.data.ssoProviderLink
      : undefined;
  useEffect(() => {
    if (autoRedirect && loggedOut && current.data && isAnonymousName(current.data.name)) {
      window.location.assign(providerHref(autoRedirect));
    }
  }, [autoRedirect, loggedOut, current.data]);
  const login = useLogin();
  const { errors, clear, capture } = useServerErrors();
  const notice = (location.state as { message?: string } | null)?.message;

  const onAnswer = useLoginAnswer();
  const goOn = (admin: boolean, name: string) => {
    // an administrator without a stored target enters at /: the guards send one who needs the
    // onboarding there (spec part 1 §2), the others to their landing page
    const target = takePathAfterLogin(admin) ?? (admin ? '/' : landingPath({ ...current.data!, admin, name }));
    navigate(target, { replace: true });
  };

  // a CLI's browser login (jf login) opens this page: its approval page asks for a sign-in first
  const clientSession = params.get('jfClientSession');
  const clientName = params.get('jfClientName');
  useEffect(() => {
    if (!clientSession) return;
    const query = new URLSearchParams({
      jfClientSession: clientSession,
      ...(clientName ? { jfClientName: clientName } : {}),
    });
    navigate(`/login/cli-registration?${query.toString()}`, { replace: true });
  }, [clientSession, clientName, navigate]);

  // an already signed-in user visiting the login page goes on
  const signedIn = loggedOut && current.data && !isAnonymousName(current.data.name) && !logoutFlag;
  useEffect(() => {
    if (signedIn && current.data) goOn(current.data.admin, current.data.name);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signedIn]);

  const onFinish = (values: LoginForm) => {
    clear();
    login.mutate(
      { user: values.user.trim(), password: values.password, rememberMe: Boolean(values.rememberMe) },
      {
        onSuccess: onAnswer,
        onError: (error) => {
          const code = errorCode(error);
          // an expired password or one that must change: on to change-password with the user name
          if (code === AUTH_ERROR_CODES.passwordExpired || code === AUTH_ERROR_CODES.credentialsExpired) {
            navigate(`/login/change-password/${encodeURIComponent(values.user.trim())}`, {
              state: { message: (error as ApiError).messages[0] },
            });
          } else capture(error);
        },
      },
    );
  };

  return (
    <main className="arca-login">
      <Card className="arca-login-card" variant="borderless">
        <div style={{ textAlign: 'center', marginBottom: 20 }}>
          <Logo footer={footer.data} height={36} />
          <Typography.Title level={1} style={{ fontSize: 20, margin: '18px 0 0' }}>
            Sign in to {footer.data?.serverName ?? 'the console'}
          </Typography.Title>
        </div>
        {notice && !errors.length && <Alert type="warning" showIcon title={notice} style={{ marginBottom: 16 }} />}
        {params.get('fromUnauthorized') === 'true' && !notice && !errors.length && (
          <Alert
            type="info"
            showIcon
            title="Your session has ended. Sign in again to continue."
            style={{ marginBottom: 16 }}
          />
        )}
        {ssoError && !errors.length && <Alert type="error" showIcon title={ssoError} style={{ marginBottom: 16 }} />}
        <ErrorList messages={errors} style={{ marginBottom: 16 }} />
        <Form<LoginForm>
          layout="vertical"
          requiredMark={false}
          onFinish={onFinish}
          initialValues={{ user: '', password: '', rememberMe: false }}
          disabled={!loggedOut}
        >
          <Form.Item label="Username" name="user" {...schemaField(loginBodySchema.shape.user)}>
            <Input prefix={<UserOutlined />} autoComplete="username" autoFocus size="large" />
          </Form.Item>
          <Form.Item label="Password" name="password" {...schemaField(loginBodySchema.shape.password)}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" size="large" />
          </Form.Item>
          <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 16 }}>
            {related.data?.canRememberMe ? (
              <Form.Item name="rememberMe" valuePropName="checked" noStyle>
                <Checkbox>Remember me</Checkbox>
              </Form.Item>
            ) : (
              <span />
            )}
            {related.data?.forgotPassword && <Link to="/login/forgot-password">Forgot password?</Link>}
          </div>
          <Button type="primary" htmlType="submit" block size="large" loading={login.isPending}>
            Log in
          </Button>
        </Form>
        {(providers.data?.length ?? 0) > 0 && (
          <>
            <Divider plain>or</Divider>
            <Flex vertical gap={8}>
              {providers.data!.map((p) => (
                <Button key={p.name} block size="large" icon={<LoginOutlined />} href={providerHref(p.url)}>
                  Sign in with {p.displayName}
                </Button>
              ))}
            </Flex>
          </>
        )}
      </Card>
      <Typography.Text type="secondary" style={{ marginTop: 16, fontSize: 12 }}>
        {footer.data ? `Build ${footer.data.buildNumber}` : '\u00a0'}
      </Typography.Text>
    </main>
  );
}

import { Navigate } from 'react-router';

/** /logout: to the login page with the logout flag, which ends the session. */
export function LogoutRoute() {
  return <Navigate to="/login?logout=true" replace />;
}

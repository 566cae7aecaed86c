import { Suspense, useEffect } from 'react';
import { createBrowserRouter, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useSession } from '../stores/session';
import { useSettings } from '../stores/settings';
import { guard } from './guard';
import { setNavigator } from './notify';
import { lazyPage } from './lazy';
import { useTokenRefresh } from './useTokenRefresh';
import Login from '../pages/Login';

const Layout = lazyPage(() => import('../layout/Layout'));
const Lock = lazyPage(() => import('../pages/Lock'));
const Home = lazyPage(() => import('../pages/Home'));
const Dashboard = lazyPage(() => import('../pages/Dashboard'));
const TestPage = lazyPage(() => import('../pages/TestPage'));
const Info = lazyPage(() => import('../pages/Info'));
const MyIframe = lazyPage(() => import('../pages/MyIframe'));
const ErrorPage = lazyPage(() => import('../pages/ErrorPage'));
// The leave process's screens (spec §2; docs/workflow.md "Screens: my work and leave"): their addresses carry ids.
const LeaveForm = lazyPage(() => import('../features/flow/work/leave/LeaveFormPage'));
const LeaveHandle = lazyPage(() => import('../features/flow/work/leave/LeaveHandlePage'));
const LeaveDetail = lazyPage(() => import('../features/flow/work/leave/LeaveDetailPage'));
const DynamicPage = lazyPage(() => import('./DynamicPage'));
// The public client pages (no login): registration, its status, a client account's forgotten password.
const RegisterPage = lazyPage(() => import('../features/register/RegisterPage'));
const RegisterStatus = lazyPage(() => import('../features/register/StatusPage'));
const ForgotPassword = lazyPage(() => import('../features/register/ForgotPage'));

const fallback = (
  <div className="atrium-center">
    <div className="atrium-spin" role="status" />
  </div>
);

/** Runs the route guard on every navigation and gives non-React code a way to navigate. */
function Root() {
  const location = useLocation();
  const nav = useNavigate();
  const token = useSession((s) => s.token);
  const isLocked = useSettings((s) => s.isLocked);
  const lockedFrom = useSettings((s) => s.lockedFrom);
  const mustChangePassword = useSession((s) => s.mustChangePassword);
  useEffect(() => setNavigator((to) => nav(to)), [nav]);
  useTokenRefresh();
  const to = guard(location.pathname, { token, isLocked, mustChangePassword, lockedFrom });
  // Keyed by the location: a redirect still on screen (e.g. Back pressed right after logging out, before the
  // login page was shown) must redirect again for the new entry, not sit there as an empty page.
  if (to) return <Navigate key={location.key} to={to} replace />;
  return (
    <Suspense fallback={fallback}>
      <Outlet />
    </Suspense>
  );
}

/** Route meta: i18n key of the title, and whether the page is a tab. */
export type RouteHandle = { title: string; isTab?: boolean; keepAlive?: boolean };

export const router = createBrowserRouter([
  {
    element: <Root />,
    children: [
      { path: '/login', element: <Login /> },
      { path: '/lock', element: <Lock /> },
      { path: '/register', element: <RegisterPage /> },
      { path: '/register/status', element: <RegisterStatus /> },
      { path: '/register/forgot', element: <ForgotPassword /> },
      { path: '/404', element: <ErrorPage code={404} /> },
      { path: '/403', element: <ErrorPage code={403} /> },
      { path: '/500', element: <ErrorPage code={500} /> },
      { path: '/', element: <Navigate to="/wel/index" replace /> },
      { path: '/wel', element: <Navigate to="/wel/index" replace /> },
      {
        element: <Layout />,
        children: [
          { path: '/wel/index', element: <Home />, handle: { title: 'page.home' } },
          { path: '/wel/dashboard', element: <Dashboard />, handle: { title: 'page.dashboard' } },
          { path: '/test/index', element: <TestPage />, handle: { title: 'page.test' } },
          { path: '/info/index', element: <Info />, handle: { title: 'page.info' } },
          { path: '/myiframe/:routerPath', element: <MyIframe />, handle: { title: 'page.iframe' } },
          {
            path: '/work/process/leave/form/:processDefinitionId',
            element: <LeaveForm />,
            handle: { title: 'page.leaveForm' },
          },
          {
            path: '/work/process/leave/handle/:taskId/:processInstanceId/:businessId',
            element: <LeaveHandle />,
            handle: { title: 'page.leaveHandle' },
          },
          {
            path: '/work/process/leave/detail/:processInstanceId/:businessId',
            element: <LeaveDetail />,
            handle: { title: 'page.leaveDetail' },
          },
          { path: '*', element: <DynamicPage /> },
        ],
      },
    ],
  },
]);

// THE registry of views: one line per view. A view is a file in views/ whose default export is a View class
// (view.js); add a file and one line here. path may hold :params (#/users/:id); nav names the menu entry (its label is
// the i18n key 'nav.<nav>', null keeps it out of the menu); role is 'guest' (signed out), 'user' (signed in) or
// 'moderator' (moderators and admins); the route marked start is where a signed-in user lands; badge names a custom
// element the menu shows beside the entry's label (defined by a module imported here).

import './views/unread.js'; // <kith-unread-badge>

export const routes = [
  { path: '/login', load: () => import('./views/login.js'), nav: null, role: 'guest' },
  { path: '/home', load: () => import('./views/timeline.js'), nav: 'home', role: 'user', start: true },
  { path: '/moments', load: () => import('./views/timeline.js'), nav: 'moments', role: 'user' },
  { path: '/latest', load: () => import('./views/timeline.js'), nav: 'latest', role: 'user' },
  { path: '/compose', load: () => import('./views/compose.js'), nav: 'compose', role: 'user' },
  { path: '/people', load: () => import('./views/people.js'), nav: 'people', role: 'user' },
  { path: '/relations', load: () => import('./views/relations.js'), nav: 'relations', role: 'user' },
  { path: '/users/:id', load: () => import('./views/user.js'), nav: null, role: 'user' },
  { path: '/posts/:id', load: () => import('./views/post.js'), nav: null, role: 'user' },
  { path: '/profile', load: () => import('./views/profile.js'), nav: 'profile', role: 'user' },
  { path: '/chat', load: () => import('./views/chat.js'), nav: 'chat', role: 'user' },
  { path: '/chat/:id', load: () => import('./views/chat.js'), nav: null, role: 'user' },
  { path: '/boards', load: () => import('./views/whiteboards.js'), nav: 'boards', role: 'user' },
  { path: '/boards/:id', load: () => import('./views/whiteboard.js'), nav: null, role: 'user' },
  { path: '/activities', load: () => import('./views/activities.js'), nav: 'activities', role: 'user' },
  { path: '/activities/:id', load: () => import('./views/activity.js'), nav: null, role: 'user' },
  { path: '/notifications', load: () => import('./views/notifications.js'), nav: 'notifications', role: 'user',
    badge: 'kith-unread-badge' },
  { path: '/ops', load: () => import('./views/ops-overview.js'), nav: 'ops', role: 'moderator' },
  { path: '/ops/queue', load: () => import('./views/ops-queue.js'), nav: null, role: 'moderator' },
  { path: '/ops/users', load: () => import('./views/ops-users.js'), nav: null, role: 'moderator' },
  { path: '/ops/users/:id', load: () => import('./views/ops-users.js'), nav: null, role: 'moderator' },
  { path: '/ops/audit', load: () => import('./views/ops-audit.js'), nav: null, role: 'moderator' },
  { path: '/ops/integrations', load: () => import('./views/ops-integrations.js'), nav: null, role: 'moderator' },
];

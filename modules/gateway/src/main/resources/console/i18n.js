// Strings in English and Simplified Chinese. The shell's strings are below; a view keeps its own next to it and
// registers them (register('en', {...}); register('zh-CN', {...})). A key missing in Chinese falls back to English,
// a key missing in both shows itself, so a forgotten string is visible rather than blank. Menu labels ('nav.<key>' of
// routes.js) live here, since the menu shows before any view is loaded.

export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'zh-CN', name: '简体中文' },
];

const STORE = 'kith.lang';
const tables = { en: {}, 'zh-CN': {} };
const listeners = new Set();
let current = pick();

function pick() {
  const saved = localStorage.getItem(STORE);
  if (saved && tables[saved]) {
    return saved;
  }
  return (navigator.language || 'en').toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/** Adds strings of one language; later keys replace earlier ones. */
export function register(lang, strings) {
  Object.assign(tables[lang] || (tables[lang] = {}), strings);
}

/** The string for key in the current language, with {name} placeholders filled from params. */
export function t(key, params = {}) {
  const text = tables[current][key] ?? tables.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

export function lang() {
  return current;
}

/** Switches the language, remembers it, and tells every listener (views re-render). */
export function setLang(code) {
  if (!tables[code] || code === current) {
    return;
  }
  current = code;
  localStorage.setItem(STORE, code);
  document.documentElement.lang = code;
  listeners.forEach((fn) => fn(code));
}

/** Calls fn on every language change; returns a function that stops it. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** A date and time in the current language. */
export function formatTime(ms) {
  return new Date(ms).toLocaleString(current, { dateStyle: 'medium', timeStyle: 'short' });
}

document.documentElement.lang = current;

register('en', {
  'app.title': 'Kith Console',
  'app.skip': 'Skip to content',
  'app.menu': 'Menu',
  'app.language': 'Language',
  'app.logout': 'Log out',
  'app.signedInAs': 'Signed in as {name}',
  'app.loading': 'Loading…',
  'app.notFound': 'There is no page here.',
  'app.forbidden': 'This page is for moderators and administrators.',
  'app.offline': 'Live updates disconnected; reconnecting…',
  'app.more': 'Load more',
  'app.save': 'Save',
  'app.cancel': 'Cancel',
  'app.error': 'Something went wrong.',
  'app.dismiss': 'Dismiss',
  'app.sessionEnded': 'Your session has ended ({code}). Log in again.',
  'nav.login': 'Log in',
  'nav.home': 'Home',
  'nav.moments': 'Moments',
  'nav.latest': 'Latest',
  'nav.compose': 'Write',
  'nav.people': 'Find people',
  'nav.relations': 'Relations',
  'nav.profile': 'Profile',
  'nav.ops': 'Operations',
  'profile.following': 'Following',
  'profile.followers': 'Followers',
  'profile.friends': 'Friends',
  'visibility.public': 'Public',
  'visibility.followers': 'Followers',
  'visibility.friends': 'Friends',
  'visibility.private': 'Only me',
  'visibility.only': 'Only some',
  'visibility.except': 'Friends except some',
});

register('zh-CN', {
  'app.title': 'Kith 控制台',
  'app.skip': '跳到内容',
  'app.menu': '菜单',
  'app.language': '语言',
  'app.logout': '退出登录',
  'app.signedInAs': '已登录：{name}',
  'app.loading': '加载中…',
  'app.notFound': '这里没有页面。',
  'app.forbidden': '此页面仅供版主和管理员使用。',
  'app.offline': '实时更新已断开，正在重连…',
  'app.more': '加载更多',
  'app.save': '保存',
  'app.cancel': '取消',
  'app.error': '出错了。',
  'app.dismiss': '关闭',
  'app.sessionEnded': '你的会话已结束（{code}）。请重新登录。',
  'nav.login': '登录',
  'nav.home': '首页',
  'nav.moments': '朋友圈',
  'nav.latest': '最新',
  'nav.compose': '发布',
  'nav.people': '找人',
  'nav.relations': '关系',
  'nav.profile': '个人资料',
  'nav.ops': '运维',
  'profile.following': '关注',
  'profile.followers': '粉丝',
  'profile.friends': '好友',
  'visibility.public': '公开',
  'visibility.followers': '粉丝可见',
  'visibility.friends': '好友可见',
  'visibility.private': '仅自己',
  'visibility.only': '部分可见',
  'visibility.except': '好友（排除部分）',
});

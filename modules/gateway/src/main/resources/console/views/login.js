// Log in or create an account (POST /api/v1/auth/login, POST /api/v1/accounts).

import { View, formData, html } from '../view.js';
import { register, t } from '../i18n.js';
import { call } from '../api.js';

register('en', {
  'login.title': 'Welcome to Kith',
  'login.intro': 'Log in, or create an account to try every feature of Kith in this browser.',
  'login.login': 'Log in',
  'login.signup': 'Create an account',
  'login.name': 'Username, email or phone',
  'login.username': 'Username',
  'login.usernameHint': '3 to 30 letters, digits, _ or ., starting with a letter',
  'login.password': 'Password',
  'login.passwordHint': 'At least 8 characters',
  'login.email': 'Email (optional)',
});
register('zh-CN', {
  'login.title': '欢迎使用 Kith',
  'login.intro': '登录，或创建账号，在浏览器中体验 Kith 的全部功能。',
  'login.login': '登录',
  'login.signup': '创建账号',
  'login.name': '用户名、邮箱或手机号',
  'login.username': '用户名',
  'login.usernameHint': '3 到 30 个字母、数字、_ 或 .，以字母开头',
  'login.password': '密码',
  'login.passwordHint': '至少 8 个字符',
  'login.email': '邮箱（可选）',
});

const DEVICE = 'Kith Console';

export default class LoginView extends View {
  async login(e) {
    e.preventDefault();
    const f = formData(e.target);
    const tokens = await this.run(() => call('POST', '/auth/login',
      { body: { login: f.login || '', password: f.password || '', device: DEVICE }, auth: false }));
    if (tokens) {
      await this.run(() => this.console.signedIn(tokens));
    }
  }

  async signup(e) {
    e.preventDefault();
    const f = formData(e.target);
    const body = { username: f.username || '', password: f.password || '', device: DEVICE };
    if (f.email) {
      body.email = f.email;
    }
    const created = await this.run(() => call('POST', '/accounts', { body, auth: false }));
    if (created) {
      await this.run(() => this.console.signedIn(created.tokens));
    }
  }

  render() {
    return html`
      <h1>${t('login.title')}</h1>
      <p>${t('login.intro')}</p>
      ${this.renderProblem()}
      <div class="columns">
        <form class="card" @submit=${(e) => this.login(e)} aria-labelledby="login-h">
          <h2 id="login-h">${t('login.login')}</h2>
          <label>${t('login.name')}<input name="login" autocomplete="username" required></label>
          <label>${t('login.password')}<input name="password" type="password" autocomplete="current-password"
            required></label>
          <button ?disabled=${this.busy}>${t('login.login')}</button>
        </form>
        <form class="card" @submit=${(e) => this.signup(e)} aria-labelledby="signup-h">
          <h2 id="signup-h">${t('login.signup')}</h2>
          <label>${t('login.username')}<input name="username" autocomplete="username" required minlength="3"
            maxlength="30" aria-describedby="username-hint"></label>
          <small id="username-hint">${t('login.usernameHint')}</small>
          <label>${t('login.password')}<input name="password" type="password" autocomplete="new-password" required
            minlength="8" aria-describedby="password-hint"></label>
          <small id="password-hint">${t('login.passwordHint')}</small>
          <label>${t('login.email')}<input name="email" type="email" autocomplete="email"></label>
          <button ?disabled=${this.busy}>${t('login.signup')}</button>
        </form>
      </div>`;
  }
}

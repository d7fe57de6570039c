// signin.mjs: a person's browser for `toolnexus call --url … --browser "node signin.mjs"`.
// `node signin.mjs URL` launches Chromium, opens the authorization link, signs in on the
// authorization server's page of auth_servers.py (its labelled fields filled with the keyboard),
// and waits until the browser lands on the CLI's loopback callback on 127.0.0.1. Exit 0 then;
// 1 with the reason on standard error otherwise.
//
// TOOLNEXUS_SIGNIN_USER and TOOLNEXUS_SIGNIN_PASSWORD name other credentials than the
// example's.

import { launchBrowser, newPage } from './host.mjs';

const USERNAME = process.env.TOOLNEXUS_SIGNIN_USER ?? 'ada';
const PASSWORD = process.env.TOOLNEXUS_SIGNIN_PASSWORD ?? 'correct horse';
/** The loopback callback the CLI listens on: http://127.0.0.1:PORT/callback?… */
const CALLBACK = /^http:\/\/127\.0\.0\.1:\d+\/callback\?/;

async function signIn(url) {
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser);
    await page.goto(url);
    await page.getByRole('heading', { level: 1, name: /^Sign in/ }).waitFor();
    await page.getByLabel('Username').focus();
    await page.keyboard.type(USERNAME);
    await page.keyboard.press('Tab');
    const password = page.getByLabel('Password');
    if (!(await password.evaluate((element) => element === document.activeElement))) {
      throw new Error('Tab from Username did not reach Password');
    }
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Tab');
    const submit = page.getByRole('button', { name: 'Sign in', exact: true });
    if (!(await submit.evaluate((element) => element === document.activeElement))) {
      throw new Error('Tab from Password did not reach the Sign in button');
    }
    await Promise.all([page.waitForURL(CALLBACK, { waitUntil: 'load' }), page.keyboard.press('Enter')]);
    // The CLI's page says the authorization came back.
    await page.getByText(/close this window/i).waitFor();
  } finally {
    await browser.close();
  }
}

const url = process.argv[2];
if (process.argv.length !== 3 || !url) {
  process.stderr.write('usage: node signin.mjs URL\n');
  process.exit(2);
}
try {
  await signIn(url);
} catch (error) {
  // Never the URL's query: it carries the state and the code challenge.
  process.stderr.write(`signin.mjs: ${error.message.split('\n')[0]}\n`);
  process.exit(1);
}

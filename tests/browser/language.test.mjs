// The language of the pages (web-client/i18n.js): the first visit follows the browser's languages, the
// header's switch changes it and the choice is kept across visits, and <html lang> always says which. A
// logged-in player's choice is its account's too (its mails are written in it): another browser that has no
// choice of its own takes it once logged in.
import {assert, assertEqual, kDesktop, kPhone, login, register} from './harness.mjs';

const lang = (page) => page.evaluate(() => document.documentElement.lang);

export const tests = {
  'language: a French browser gets French pages, the switch turns them English and the choice is kept':
      async (h) => {
        for (const viewport of [kDesktop, kPhone]) {
          const {page} = await h.newPlayer('', {viewport, locale: 'fr-FR'});
          await page.waitForSelector('#language');
          assertEqual(await lang(page), 'fr', 'a French browser\'s first visit');
          assertEqual(await page.locator('#language').inputValue(), 'fr', 'the switch shows French');
          assertEqual(await page.locator('#language').getAttribute('aria-label'), 'Langue', 'the switch in French');
          // The switch is a control a finger can hit on a phone.
          const box = await page.locator('#language').boundingBox();
          assert(box && box.height >= 44, `the switch is ${box && box.height} px tall`);
          await h.screenshot(page, `language-fr-${viewport.width}`);
          await page.locator('#language').selectOption('en');
          await page.waitForFunction(() => document.documentElement.lang === 'en');
          await page.waitForSelector('#language');
          assertEqual(await page.locator('#language').getAttribute('aria-label'), 'Language', 'in English now');
          // Kept: the next visit stays English although the browser says French.
          await page.goto(`${h.url}/#/help`);
          await page.waitForSelector('#language');
          assertEqual(await lang(page), 'en', 'the choice kept across visits');
        }
        // A browser whose languages have no catalog gets English.
        const {page} = await h.newPlayer('', {locale: 'de-DE'});
        await page.waitForSelector('#language');
        assertEqual(await lang(page), 'en', 'a German browser');
      },
  'language: an account switched to French is French in another browser once logged in':
      async (h) => {
        const {page} = await h.newPlayer('', {locale: 'en-US'});
        await register(page, 'lea', 'secret-lea-1');
        assertEqual(await lang(page), 'en', 'an English browser');
        await page.locator('#language').selectOption('fr');
        await page.waitForFunction(() => document.documentElement.lang === 'fr');
        await page.waitForSelector('#language');
        // Another browser, English and with no choice of its own: logged in, it turns French, once.
        const other = (await h.newPlayer('', {locale: 'en-US'})).page;
        await page.waitForSelector('#language');
        assertEqual(await lang(other), 'en', 'a guest in an English browser');
        await login(other, 'lea', 'secret-lea-1');
        await other.waitForFunction(() => document.documentElement.lang === 'fr', null, {timeout: 20000});
        await other.waitForSelector('#language');
        assertEqual(await other.locator('#language').inputValue(), 'fr', 'the switch shows French');
        assertEqual(await other.evaluate(() => localStorage.getItem('cinq.language')), 'fr', 'kept in the browser');
        await h.screenshot(other, 'language-account-fr');
        // Switched back to English there: the account is English again for a third browser, which stays so.
        await other.locator('#language').selectOption('en');
        await other.waitForFunction(() => document.documentElement.lang === 'en');
        const third = (await h.newPlayer('', {locale: 'fr-FR'})).page;
        await third.evaluate(() => localStorage.setItem('cinq.language', 'fr'));
        await login(third, 'lea', 'secret-lea-1');
        await third.waitForTimeout(1000);
        assertEqual(await lang(third), 'fr', 'a browser\'s own choice is kept over its account\'s');
      },
};

// The language of the pages (web-client/i18n.js): the first visit follows the browser's languages, the
// header's switch changes it and the choice is kept across visits, and <html lang> always says which.
import {assert, assertEqual, kDesktop, kPhone} from './harness.mjs';

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
};

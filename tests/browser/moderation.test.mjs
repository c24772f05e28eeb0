// Moderation in the browser (web-client/moderation.js, chat.js; docs/protocol.md "Moderation"): a player
// reports a chat line and blocks its writer from the room's chat; the moderation page is refused to a player
// who is none; once `cinq admin grant` made her a moderator, it shows the report, opens the reported player,
// mutes and bans him (his browser becomes a guest), resolves the report, and its audit log lists each action.
// The header's Moderation link (app.js, by the role `welcome` says): a moderator's, at 1280 and 390 px (in the
// phone's menu), in English and French, leading to the page, which fits; a player never sees it.
import {execFileSync} from 'node:child_process';
import path from 'node:path';

import {assert, assertEqual, binaryPath, createRoom, kArtifacts, kPhone, kWait, login, lowContrastText, register, sitFromLobby,
        waitGuest, waitStatus, waitWelcomed} from './harness.mjs';

const kPassword = 'correct horse 19';

async function moderationPage(page) {
  await page.goto(`${page.url().replace(/#.*$/, '')}#/`);  // the page is drawn anew, with the role asked again
  await page.goto(`${page.url().replace(/#.*$/, '')}#/moderation`);
  await waitWelcomed(page);
  await page.waitForSelector('#moderation[data-state="ready"], #moderation[data-state="forbidden"]');
  return page.locator('#moderation').getAttribute('data-state');
}

export const tests = {
  'moderation: a report and a block from the chat, then the moderation page mutes, bans and resolves': async (h) => {
    const mia = await h.newPlayer('Mia');
    const zed = await h.newPlayer('Zed');
    const cat = await h.newPlayer('Cat');
    await register(mia.page, 'mia_m', kPassword);
    await register(zed.page, 'zed_m', kPassword);
    await register(cat.page, 'cat_m', kPassword);

    // Zed writes in Cat's room; Cat reports the line (the reason asked in a dialog), then blocks him.
    const room = await createRoom(cat.page, {game: 'tablut'});
    await sitFromLobby(zed.page, room);
    await waitStatus(cat.page, 'live');
    await zed.page.locator('#chat-input').fill('you play like a ...');
    await zed.page.locator('#chat-send').click();
    const line = cat.page.locator('#chat-log .chat-message', {hasText: 'you play like a ...'});
    await line.waitFor({timeout: kWait});
    assertEqual(await zed.page.locator('#chat-log .chat-report').count(), 0, 'nobody reports his own lines');
    cat.page.once('dialog', (dialog) => dialog.accept('insults'));
    await line.locator('.chat-report').click();
    await cat.page.locator('#notice', {hasText: 'the moderators will look at it'}).waitFor({timeout: kWait});
    await line.locator('.chat-block').click();
    await cat.page.locator('#notice', {hasText: 'You will no longer see'}).waitFor({timeout: kWait});
    await cat.page.waitForFunction(() => !document.querySelector('#chat-log .chat-message .chat-block'));
    await zed.page.locator('#chat-input').fill('second line');
    await zed.page.locator('#chat-send').click();
    await zed.page.locator('#chat-log .chat-message', {hasText: 'second line'}).waitFor({timeout: kWait});
    await cat.page.waitForTimeout(500);
    assertEqual(await cat.page.locator('#chat-log .chat-message', {hasText: 'second line'}).count(), 0,
                'a blocked player\'s lines are not shown');

    // Not a moderator: the page says so.
    assertEqual(await moderationPage(mia.page), 'forbidden', 'a player is refused the page');
    assert((await mia.page.locator('#moderation-status').innerText()).includes('for moderators'), 'and told why');

    execFileSync(binaryPath(), ['admin', 'grant', 'mia_m', 'moderator', '--data', h.server.data]);
    assertEqual(await moderationPage(mia.page), 'ready', 'a moderator has the page');
    const report = mia.page.locator('#moderation-reports .moderation-report');
    await report.first().waitFor({timeout: kWait});
    assertEqual(await report.count(), 1, 'one open report');
    assert((await report.innerText()).includes('you play like a ...'), 'the reported line is shown');
    assert((await report.innerText()).includes('insults'), 'with its reason');
    assert((await lowContrastText(mia.page)).length === 0, 'the page reads well');
    await h.screenshot(mia.page, 'moderation-page');

    // The reported player: muted for a day, then banned.
    await report.locator('.moderation-open').click();
    await mia.page.locator('#moderation-player-title', {hasText: 'zed_m'}).waitFor({timeout: kWait});
    await mia.page.locator('#moderation-no-sanction').waitFor();
    await mia.page.locator('#moderation-duration').selectOption('1d');
    await mia.page.locator('#moderation-reason').fill('insults in chat');
    await mia.page.locator('#moderation-mute').click();
    await mia.page.locator('#moderation-status', {hasText: 'The player is muted.'}).waitFor({timeout: kWait});
    await mia.page.locator('#moderation-sanctions li[data-kind="mute"]').waitFor({timeout: kWait});
    await zed.page.locator('#chat-input').fill('third line');
    await zed.page.locator('#chat-send').click();
    await zed.page.locator('#chat-error', {hasText: 'muted'}).waitFor({timeout: kWait});

    await mia.page.locator('#moderation-duration').selectOption('7d');
    await mia.page.locator('#moderation-reason').fill('cheating');
    await mia.page.locator('#moderation-ban').click();
    await mia.page.locator('#moderation-status', {hasText: 'banned'}).waitFor({timeout: kWait});
    await waitGuest(zed.page);  // logged out: his browser goes on as a new guest

    // The report resolved; the audit log lists every action, newest first.
    await mia.page.locator('#moderation-reports .moderation-resolve').click();
    await mia.page.locator('#moderation-reports-empty').waitFor({timeout: kWait});
    const actions = await mia.page.locator('#moderation-audit li').evaluateAll(
        (items) => items.map((item) => item.dataset.action));
    assertEqual(actions.join(' '), 'resolve_report ban mute grant', 'the audit log');
    assert((await mia.page.locator('#moderation-audit li').nth(1).innerText()).includes('7d: cheating'),
           'an entry says its duration and reason');
  },

  'moderation: the header links to the moderation page for a moderator only, at 1280 and 390 px, in both languages': async (h) => {
    const rho = await h.newPlayer('Rho');
    const pip = await h.newPlayer('Pip');
    await register(rho.page, 'rho_h', kPassword);
    await register(pip.page, 'pip_h', kPassword);
    const link = (page) => page.locator('#nav-moderation');
    assert(!(await link(rho.page).isVisible()), 'no link before the grant');

    execFileSync(binaryPath(), ['admin', 'grant', 'rho_h', 'moderator', '--data', h.server.data]);
    // The running server reads the role within its poll (2 s); the link follows at the next welcome.
    for (let i = 0; i < 40 && !(await link(rho.page).isVisible()); ++i) {
      await rho.page.waitForTimeout(250);
      await rho.page.reload();
      await waitWelcomed(rho.page);
    }
    assert(await link(rho.page).isVisible(), 'a moderator sees the link');
    assertEqual((await link(rho.page).innerText()).trim(), 'Moderation', 'its English word');
    await h.screenshot(rho.page, 'moderation-header-1280');
    await link(rho.page).click();
    await rho.page.waitForSelector('#moderation[data-state="ready"]');
    assertEqual(await link(rho.page).getAttribute('aria-current'), 'page', 'the link is the current page');
    const fits = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    assert(await fits(rho.page), 'the page fits 1280 px');

    // A player: never the link, wherever he is.
    await pip.page.reload();
    await waitWelcomed(pip.page);
    await pip.page.waitForTimeout(300);
    assertEqual(await link(pip.page).isVisible(), false, 'a player does not see the link');

    // 390 px: the link is in the menu; the page fits.
    await rho.page.setViewportSize(kPhone);
    await rho.page.goto(`${rho.page.url().replace(/#.*$/, '')}#/`);
    await rho.page.locator('#menu-button').click();
    await link(rho.page).waitFor({state: 'visible', timeout: kWait});
    // The header and its open menu as a phone shows them (the viewport, not the whole page).
    await rho.page.screenshot({path: path.join(kArtifacts, 'moderation-header-390.png')});
    await link(rho.page).click();
    await rho.page.waitForSelector('#moderation[data-state="ready"]');
    assert(await fits(rho.page), 'the page fits 390 px');
    await h.screenshot(rho.page, 'moderation-page-390');
    await pip.page.setViewportSize(kPhone);
    await pip.page.locator('#menu-button').click();
    await pip.page.locator('#site-nav a[href="#/archive"]').waitFor({state: 'visible', timeout: kWait});
    assertEqual(await link(pip.page).isVisible(), false, 'nor in a player\'s menu');

    // French: the moderator logged in from a French browser.
    const fr = await h.newPlayer('', {locale: 'fr-FR'});
    await login(fr.page, 'rho_h', kPassword);
    await link(fr.page).waitFor({state: 'visible', timeout: kWait});
    assertEqual((await link(fr.page).innerText()).trim(), 'Modération', 'its French word');
  },
};

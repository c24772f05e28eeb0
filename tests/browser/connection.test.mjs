// The connection banner and the resynchronisation after a dropped connection. The drop is real: the page
// talks to the server through a TCP relay that the test cuts and restores. And a server that speaks another
// protocol version than the page is named, and not talked to.
import {assert, clickMove, createRoom, kWait, mySeat, sitFromLobby, version, waitStatus, waitVersion,} from './harness.mjs';

export const tests = {
  'the connection banner appears when the connection drops, goes away when it is back, and the page catches up':
      async (h) => {
        const relay = await h.newRelay();
        const alice = await h.newPlayer('Alice', {base: relay.url});
        const bob = await h.newPlayer('Bob');
        const room = await createRoom(alice.page, {game: 'tablut'});
        await sitFromLobby(bob.page, room);
        await waitStatus(alice.page, 'live');
        const banner = alice.page.locator('#banner');
        assert(await banner.isHidden(), 'no banner while connected');

        relay.cut();
        await banner.waitFor({state: 'visible', timeout: kWait});
        const text = await banner.innerText();
        assert(
            /connection lost/i.test(text), `the banner says the connection is lost: ${JSON.stringify(text)}`);

        // Meanwhile, if it is Bob's turn, he plays: Alice must catch up on it after the reconnection.
        const bobSeat = await mySeat(bob.page);
        const seenByAlice = await version(alice.page);
        let expected = seenByAlice;
        if ((await bob.page.locator('#room').getAttribute('data-to-move')) === String(bobSeat)) {
          // Seat 0 is A (attackers, e8 i8 is legal at the start), seat 1 is D (e3 a3 answers it).
          expected = await clickMove(bob.page, 'e8', 'i8');
        }

        relay.restore();
        await banner.waitFor({state: 'hidden', timeout: 2 * kWait});
        await waitVersion(alice.page, expected);
        const aliceSeat = await mySeat(alice.page);
        assert(aliceSeat === 1 - bobSeat, 'Alice keeps her seat after the reconnection');
        await alice.page.waitForSelector(`#room[data-to-move="${aliceSeat}"]`);
        const move = aliceSeat === 0 ? ['e8', 'i8'] : ['e3', 'a3'];
        const reached = await clickMove(alice.page, move[0], move[1]);
        await waitVersion(bob.page, reached);
      },

  'a page whose server speaks another protocol version says so and stops': async (h) => {
    const {page} = await h.newPlayer('');
    // The page's WebSocket goes through playwright, which rewrites the version in the server's welcome.
    let sockets = 0;
    await page.routeWebSocket(/\/ws$/, (ws) => {
      sockets += 1;
      const server = ws.connectToServer();
      server.onMessage((message) => {
        const parsed = JSON.parse(message);
        ws.send(parsed.type === 'welcome' ? JSON.stringify({...parsed, protocol: 3}) : message);
      });
    });
    await page.reload();
    const box = page.locator('#protocol-mismatch');
    await box.waitFor({state: 'visible', timeout: kWait});
    const text = await box.innerText();
    assert(
        /server speaks protocol 3, this page expects 2: reload/.test(text),
        `#protocol-mismatch names both versions: ${JSON.stringify(text)}`);
    assert(await page.locator('#banner').isHidden(), 'no "connection lost" banner meanwhile');
    // No reconnection follows (the first would come 500 ms after the close).
    await page.waitForTimeout(1500);
    assert(sockets === 1, `one connection only, not ${sockets}`);
  },
};

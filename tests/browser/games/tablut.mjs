// Browser test hook for the Tablut board (web-client/boards/tablut.js): one move by two clicks.
export const game = 'tablut';
export const options = '';

// `page` shows the room as the seat to move. Clicks a movable piece, then its first highlighted
// destination, and waits until the server's answer has put the piece there.
export async function playFirstTurn(page) {
  const board = page.locator('#board svg.board-tablut');
  const piece = board.locator('[data-piece][data-movable="true"]').first();
  await piece.waitFor();
  const from = await piece.getAttribute('data-piece');
  await piece.click();
  await board.locator(`[data-piece="${from}"].selected`).waitFor();
  const target = board.locator('[data-square][data-legal="true"]').first();
  await target.waitFor();
  const to = await target.getAttribute('data-square');
  await target.click();
  // The move is done when the server's event has moved the piece and the turn has passed.
  await board.locator(`[data-piece="${to}"]`).waitFor();
  await board.locator(`[data-piece="${from}"]`).waitFor({state: 'detached'});
  await board.locator('[data-piece][data-movable="true"]').first().waitFor({state: 'detached'});
  return `${from} ${to}`;
}

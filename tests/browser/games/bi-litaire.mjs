// Bi-litaire's hook for the browser tests: one whole turn played by clicks on the board, as a person would.
export const game = 'bi-litaire';
export const options = '';  // Bi-litaire has no options

const board = '#board svg.board-bi-litaire';

// `page` shows the room as the seat to move. The game's first turn is the marble player's removal of one
// marble (`x d4`); the other phases are handled too, so the hook also serves a later turn.
export async function playFirstTurn(page) {
  await page.waitForSelector(`${board} [data-legal="true"]`);
  const phase = await page.getAttribute(board, 'data-phase');
  if (phase === 'first_removal') {
    await page.click(`${board} [data-square="d4"][data-legal="true"]`);
    // The marble is gone once the server has taken the turn.
    await page.waitForSelector(`${board} [data-square="d4"]:not([data-piece])`);
    return;
  }
  if (phase === 'tray') {
    // Pick a tray, push it to its first highlighted slot, then end the turn without an announcement.
    await page.click(`${board} .bl-tray[data-legal="true"]`);
    const target = page.locator(`${board} .bl-slot[data-legal="true"], ${board} .bl-remove`).first();
    await target.click();
    await page.waitForSelector(`${board}[data-phase="tray_done"] [data-action="end"]`);
    await page.click(`${board} [data-action="end"]`);
    await page.waitForSelector(`${board}:not([data-phase="tray_done"])`);
    return;
  }
  if (phase === 'tray_done') {
    await page.click(`${board} [data-action="end"]`);
    await page.waitForSelector(`${board}:not([data-phase="tray_done"])`);
    return;
  }
  if (phase === 'marbles') {
    // A marble, then landing holes until the chain is complete and sent.
    await page.click(`${board} .bl-hole[data-piece="marble"][data-legal="true"]`);
    for (let i = 0; i < 16; ++i) {
      const phaseNow = await page.getAttribute(board, 'data-phase');
      if (phaseNow !== 'marbles') return;
      const landing = page.locator(`${board} .bl-hole[data-legal="true"]:not([data-piece])`).first();
      if ((await landing.count()) === 0) break;
      await landing.click();
    }
    await page.waitForSelector(`${board}:not([data-phase="marbles"])`);
    return;
  }
  throw new Error(`bi-litaire: no turn to play in phase ${phase}`);
}

// The boards' turn handling: a turn composed with `try` and sent whole on confirmation, premoves,
// the last turn marked, and the board bugs a new player hit. Each board's own tests are in its game's test
// module (tests/browser/games/NAME.mjs, `boardTests`, with the helpers of boards-kit.mjs); this file runs them
// for every game of the server's table, and marks the last turn of each from a record alone.
import {assert, gameModule, gameNames} from './harness.mjs';

// Each game of the server's table: its board's own tests (boardTests of tests/browser/games/NAME.mjs), and the
// last turn marked from the record alone (its showLastTurn).
const kModules = await Promise.all(gameNames().map(async (name) => [name, await gameModule(name)]));

export const tests = {
  ...Object.assign({}, ...kModules.map(([, module]) => module.boardTests || {})),

  'the last turn and what it took are marked from the record alone, in every game (as after a reload)':
      async (h) => {
        for (const [name, module] of kModules) {
          assert(typeof module.showLastTurn === 'function', `games/${name}.mjs exports no showLastTurn(h)`);
          await module.showLastTurn(h);
        }
      },
};

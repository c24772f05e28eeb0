// A tiny runner for the browser tests (no @playwright/test): runs the tests exported by every *.test.mjs
// beside it, each against its own fresh server and browser contexts, and prints PASS/FAIL per test.
//   node run.mjs [path/to/cinq] [--filter=WORDS] [--jobs=N]      (CINQ_BINARY also names the binary)
// Tests run N at a time (--jobs, or BROWSER_JOBS; 1 by default) in one browser, each lane taking the next
// test; a test whose file lists it in its `alone` export (by name) times something a busy machine would
// upset: those run afterwards, one at a time.
// Exits 1 if any test failed. Each test has 60 s, or what its file's `timeouts` export gives it by name
// (milliseconds); a failed test leaves screenshots of its pages in the
// artifacts directory.
import {mkdirSync, readdirSync, rmSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

import {Harness, kArtifacts, launchBrowser} from './harness.mjs';

const kTestTimeoutMs = 60000;
const here = path.dirname(fileURLToPath(import.meta.url));

const filter = (process.argv.find((arg) => arg.startsWith('--filter=')) || '').slice('--filter='.length);
const jobsArg = (process.argv.find((arg) => arg.startsWith('--jobs=')) || '').slice('--jobs='.length);
const kJobs = Math.max(1, Number(jobsArg || process.env.BROWSER_JOBS || 1) || 1);

// A test that timed out keeps running until teardown closes its pages; what it then throws is expected.
process.on('unhandledRejection', () => {});

function slug(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80);
}

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function collectTests() {
  const files = readdirSync(here).filter((name) => name.endsWith('.test.mjs')).sort();
  const tests = [];
  for (const file of files) {
    const module = await import(pathToFileURL(path.join(here, file)).href);
    for (const [name, fn] of Object.entries(module.tests || {})) {
      const timeout = (module.timeouts || {})[name] || kTestTimeoutMs;
      const alone = (module.alone || []).includes(name);
      if (!filter || name.includes(filter) || file.includes(filter)) tests.push({file, name, fn, timeout, alone});
    }
  }
  return tests;
}

// Leaves a picture of every open page of a failed test, to see what the test saw.
async function shootFailure(harness, name) {
  mkdirSync(kArtifacts, {recursive: true});
  let index = 0;
  for (const context of harness.contexts) {
    for (const page of context.pages()) {
      index += 1;
      const file = path.join(kArtifacts, `FAIL-${slug(name)}-${index}.png`);
      await withTimeout(page.screenshot({path: file, fullPage: true}), 10000, 'screenshot').catch(() => {});
    }
  }
}

// Pictures of failures from an earlier run would mislead: start without them.
function clearOldFailures() {
  mkdirSync(kArtifacts, {recursive: true});
  for (const name of readdirSync(kArtifacts)) {
    if (name.startsWith('FAIL-')) rmSync(path.join(kArtifacts, name), {force: true});
  }
}

// Runs one test on its own server and pages; prints its FAIL report at once (the first failure is always
// shown) and gives {ok, seconds, report}.
async function runOnce(browser, test) {
  const harness = new Harness(browser, test.name);
  const started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  try {
    await withTimeout(
        (async () => {
          await harness.start();
          await test.fn(harness);
          // The server's Content-Security-Policy must never have blocked anything a page does.
          if (harness.cspViolations.length > 0) {
            throw new Error(`blocked by the Content-Security-Policy: ${harness.cspViolations.join('; ')}`);
          }
        })(),
        test.timeout,
        'the test',
    );
    return {ok: true, seconds: seconds()};
  } catch (error) {
    const lines = [`FAIL ${test.name} (${test.file}, ${seconds()} s)`];
    lines.push(`     ${String(error && error.stack ? error.stack : error).replace(/\n/g, '\n     ')}`);
    for (const line of harness.pageErrors.slice(0, 20)) lines.push(`     page: ${line}`);
    if (harness.server) {
      for (const line of harness.server.log().trim().split('\n').slice(-15)) lines.push(`     server: ${line}`);
    }
    const report = lines.join('\n');
    console.log(report);
    await shootFailure(harness, test.name);
    return {ok: false, seconds: seconds(), report};
  } finally {
    await withTimeout(harness.teardown(), 20000, 'teardown').catch((error) => {
      console.log(`     teardown: ${error.message}`);
    });
  }
}

async function main() {
  clearOldFailures();
  const tests = await collectTests();
  if (tests.length === 0) {
    console.log('no browser test found');
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  // One browser for every lane, launched again (once) should it go away.
  let browser = null;
  let launching = null;
  const browserNow = async () => {
    if (browser && browser.isConnected()) return browser;
    if (!launching) {
      launching = launchBrowser().then((launched) => {
        browser = launched;
        launching = null;
        return launched;
      });
    }
    return launching;
  };
  let passed = 0;
  const failures = [];
  const flaky = [];
  // A test that fails is run once more on a fresh server and page: a pass then is reported as FLAKY (and
  // counted), so a timing slip of a loaded machine is seen without failing the run; two failures fail it.
  const runTest = async (test) => {
    let outcome = await runOnce(await browserNow(), test);
    if (!outcome.ok) {
      const again = await runOnce(await browserNow(), test);
      if (again.ok) {
        flaky.push(test.name);
        console.log(`FLAKY ${test.name}: failed once, passed when run again (${again.seconds} s)`);
        outcome = again;
      } else {
        console.log(`FAIL ${test.name} twice: counted as failed`);
      }
    }
    if (outcome.ok) {
      passed += 1;
      if (!flaky.includes(test.name)) console.log(`PASS ${test.name} (${outcome.seconds} s)`);
    } else {
      failures.push(test.name);
    }
  };
  const started = Date.now();
  try {
    const shared = tests.filter((test) => !test.alone);
    const lane = async () => {
      for (let test = shared.shift(); test; test = shared.shift()) await runTest(test);
    };
    await Promise.all(Array.from({length: Math.min(kJobs, shared.length)}, lane));
    for (const test of tests.filter((t) => t.alone)) await runTest(test);
  } finally {
    if (browser) await browser.close().catch(() => {});
  }
  console.log('');
  for (const name of flaky) console.log(`flaky: ${name}`);
  for (const name of failures) console.log(`failed: ${name}`);
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  console.log(`${passed} passed (${flaky.length} of them on a second run), ${failures.length} failed, ` +
              `in ${minutes} min, ${kJobs} at a time`);
  process.exit(failures.length ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  console.log('0 passed, 1 failed');
  process.exit(1);
});

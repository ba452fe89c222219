/**
 * Live updates of `mmb view`: a watcher of results/ (`fs.watch`, with a poll as the fallback
 * where watching misses changes) that tells the Server-Sent Events clients of `/events` which
 * runs changed, debounced; and the script of the pages that listen and reload in place, keeping
 * the scroll position, the open sections and the runs selected.
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { JOURNAL_FILE, LOCK_FILE, resultsDir, STATE_FILE } from '../protocol/layout';
import { servedIds } from './runs';

/** The most pages following at once; one more is refused (503) rather than served without bound. */
export const MAX_EVENT_CLIENTS = 32;
/** Changes closer than this are told as one. */
const DEBOUNCE_MS = 250;
/** How often results/ is looked at when no watch event came: a watch can miss a file written over a rename. */
const POLL_MS = 1500;
const HEARTBEAT_MS = 15_000;

/** The most folders watched (results/ and the runs in it); the poll covers the others. */
const MAX_WATCHED = 200;

/** A run's files as they stand: a change of any of them (or of the lock) is a change of the run. */
function signature(results: string, id: string): string {
  return [STATE_FILE, JOURNAL_FILE, LOCK_FILE]
    .map((file) => {
      const stat = statSync(join(results, id, file), { throwIfNoEntry: false });
      return stat ? `${stat.size}:${stat.mtimeMs}` : '-';
    })
    .join('|');
}

export class RunEvents {
  private readonly clients = new Set<ServerResponse>();
  private signatures = new Map<string, string>();
  /** results/ (key '') and each run folder, watched without recursion: a run's own files are all at its top. */
  private readonly watchers = new Map<string, FSWatcher>();
  private poll: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private pending: NodeJS.Timeout | undefined;

  constructor(private readonly root: string) {}

  /** Takes a client of `/events`; false when there are too many already (the caller answers 503). */
  add(response: ServerResponse): boolean {
    if (this.clients.size >= MAX_EVENT_CLIENTS) return false;
    if (this.clients.size === 0) this.start();
    this.clients.add(response);
    response.write('retry: 2000\n\n');
    response.on('close', () => {
      this.clients.delete(response);
      if (this.clients.size === 0) this.stop();
    });
    return true;
  }

  get size(): number {
    return this.clients.size;
  }

  private start(): void {
    this.signatures = this.scan();
    this.watchFolders();
    this.poll = setInterval(() => this.changed(), POLL_MS);
    this.heartbeat = setInterval(() => this.send(': keep-alive\n\n'), HEARTBEAT_MS);
  }

  /** Watches results/ and its runs' folders, those that came added, those that went closed. */
  private watchFolders(): void {
    const wanted = ['', ...this.signatures.keys()].slice(0, MAX_WATCHED);
    for (const [key, watcher] of this.watchers) {
      if (!wanted.includes(key)) {
        watcher.close();
        this.watchers.delete(key);
      }
    }
    for (const key of wanted) {
      if (this.watchers.has(key)) continue;
      try {
        const watcher = watch(key ? join(resultsDir(this.root), key) : resultsDir(this.root), () => this.changed());
        watcher.on('error', () => {
          watcher.close();
          this.watchers.delete(key);
        });
        this.watchers.set(key, watcher);
      } catch {
        // No results/ yet, or a folder gone meanwhile: the poll sees the changes.
      }
    }
  }

  private closeWatchers(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private stop(): void {
    this.closeWatchers();
    clearInterval(this.poll);
    clearInterval(this.heartbeat);
    clearTimeout(this.pending);
    this.pending = undefined;
  }

  /** Ends every client and stops watching: the server is closing. */
  close(): void {
    for (const client of this.clients) client.end();
    this.clients.clear();
    this.stop();
  }

  private scan(): Map<string, string> {
    const results = resultsDir(this.root);
    return new Map(servedIds(this.root).map((id) => [id, signature(results, id)]));
  }

  private changed(): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      const now = this.scan();
      const runs = [...new Set([...now.keys(), ...this.signatures.keys()])].filter((id) => now.get(id) !== this.signatures.get(id));
      this.signatures = now;
      if (this.clients.size) this.watchFolders();
      if (runs.length) this.send(`event: change\ndata: ${JSON.stringify({ runs })}\n\n`);
    }, DEBOUNCE_MS);
  }

  private send(text: string): void {
    for (const client of this.clients) client.write(text);
  }
}

/**
 * The script of a page that follows runs: on a change of `run` (of any run for the index, `run`
 * null) it reloads, at most every two seconds, and puts back where the reader was.
 */
export function liveScript(run: string | null): string {
  const watched = JSON.stringify(run).replace(/</g, '\\u003c');
  return `(function () {
  var watched = ${watched};
  var key = 'mmb-view ' + location.pathname;
  try {
    var saved = JSON.parse(sessionStorage.getItem(key) || 'null');
    sessionStorage.removeItem(key);
    if (saved) {
      var details = document.querySelectorAll('details');
      saved.open.forEach(function (i) { if (details[i]) details[i].open = true; });
      document.querySelectorAll('input[name=run]').forEach(function (box) {
        if (saved.checked.indexOf(box.value) >= 0) box.checked = true;
      });
      window.scrollTo(0, saved.y);
    }
  } catch (e) { /* nothing saved: a first visit */ }
  var last = Date.now();
  var timer = null;
  function reload() {
    var open = [];
    document.querySelectorAll('details').forEach(function (d, i) { if (d.open) open.push(i); });
    var checked = Array.prototype.map.call(document.querySelectorAll('input[name=run]:checked'), function (box) { return box.value; });
    sessionStorage.setItem(key, JSON.stringify({ y: window.scrollY, open: open, checked: checked }));
    location.reload();
  }
  var source = new EventSource('/events');
  source.addEventListener('change', function (e) {
    var runs = JSON.parse(e.data).runs || [];
    if (watched !== null && runs.indexOf(watched) < 0) return;
    if (timer) return;
    timer = setTimeout(reload, Math.max(0, 2000 - (Date.now() - last)));
  });
  window.mmbLive = source;
})();`;
}

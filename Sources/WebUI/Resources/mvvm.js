(() => {
  'use strict';
  const body = document.body;
  let session = body.dataset.session;
  // The path the app is mounted under (`/todo` behind a proxy; empty at the root): the socket
  // and every address of the browser's history are under it; the server's addresses are not.
  const base = body.dataset.base || '';
  const root = document.getElementById('root');
  // Text fields and textareas (a checkbox or a radio button is not one: it sends its change,
  // if asked for).
  const FIELDS = 'input[id]:not([type=checkbox]):not([type=radio]):not([type=file]), textarea[id]';
  const banner = document.getElementById('connection');
  let frame = +body.dataset.frame;
  let framesSeen = frame, frameAckTimer = null;   // the last frame the server heard the page has
  let seq = 0;
  let unacked = [];               // {n, text, id, kind}: sent, not yet acknowledged
  const sentAt = new Map();       // n -> performance.now() when sent
  const stats = { latencies: [], bytesOut: 0, bytesIn: 0, frames: 0, resets: 0, applied: 0, frameAcks: 0, actionsLost: 0, closes: [] };
  let ws = null, retry = 0, closing = false, expired = false;
  let restarting = false;         // the server said it was stopping (close 1001): until connected again
  let offline = false;            // no connection: the page's controls wait (see `setOffline`)
  const listState = new Map();    // list id -> {f, l, endCount}
  // What the server holds for each field (sent by us, or set by its patches; for a field the
  // server drew, the value it drew it with). A field whose value differs without an event having
  // said so (autofill, a script, keys typed before this script ran on a slow network) is sent
  // before a click or a submit, and once as the page connects, so the view model acts on what
  // the user sees.
  let known = new Map();
  function rememberFields() {
    known = new Map();
    for (const input of root.querySelectorAll(FIELDS)) known.set(input.id, input.defaultValue);
  }
  rememberFields();

  // Text in another language than the page's, where the app knows it (PageShell.Head's
  // otherLanguages: a language and the scripts it is written in, on <html data-languages>, as
  // "zh:Han ja:Han+Hiragana+Katakana"): each run of those scripts' letters (with the spaces and
  // punctuation between them) is put in a <span lang>, so a screen reader speaks it in that
  // language's voice and the browser picks that language's fonts. Marked as it arrives: the
  // first page, a new page, and every patch that brings text.
  // A browser without Unicode property escapes (or a script it does not know) marks nothing
  // rather than stopping the page's script.
  const otherLanguages = (document.documentElement.getAttribute('data-languages') || '').split(' ').filter(Boolean).flatMap((pair) => {
    const [lang, scripts = ''] = pair.split(':');
    const letter = '[' + scripts.split('+').map((s) => '\\p{Script=' + s + '}').join('') + ']';
    try {
      return [{ lang, run: new RegExp(letter + '(?:[\\p{Script=Common}\\p{Script=Inherited}]*' + letter + ')*', 'gu') }];
    } catch (e) {
      return [];
    }
  });
  function markLanguages(scope) {
    if (!otherLanguages.length || !scope) return;
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    const found = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentNode;
      if (!parent || parent.nodeName === 'SCRIPT' || parent.nodeName === 'STYLE' || parent.nodeName === 'TITLE') continue;
      found.push(node);
    }
    for (const node of found) markText(node);
  }
  function markText(node) {
    const within = node.parentNode.closest('[lang]');
    const current = within ? within.getAttribute('lang') : '';
    const text = node.nodeValue;
    const runs = [];
    for (const { lang, run } of otherLanguages) {
      if (lang === current) continue;            // already in that language (a span made before)
      run.lastIndex = 0;
      for (let m = run.exec(text); m; m = run.exec(text)) runs.push({ at: m.index, end: m.index + m[0].length, lang });
    }
    if (!runs.length) return;
    runs.sort((a, b) => a.at - b.at);
    const parts = document.createDocumentFragment();
    let at = 0;
    for (const r of runs) {
      if (r.at < at) continue;                     // two languages' scripts overlapping: the first
      if (r.at > at) parts.appendChild(document.createTextNode(text.slice(at, r.at)));
      const span = document.createElement('span');
      span.setAttribute('lang', r.lang);
      span.textContent = text.slice(r.at, r.end);
      parts.appendChild(span);
      at = r.end;
    }
    if (at < text.length) parts.appendChild(document.createTextNode(text.slice(at)));
    node.parentNode.replaceChild(parts, node);
  }
  markLanguages(root);

  // The browser's history follows the server's screens: one entry per screen, each with its
  // address (`urls`, bottom first). `historyDepth` is the entry the browser is on (after a
  // reload, the one it was on); a traversal (history.go) is asynchronous, so while one is
  // under way nothing else is asked of the history, and its popstate is not taken for the
  // user's. Until the server says its screens are built (a page opened at a deep address),
  // the history is left alone.
  // Each entry also names the page that made it (`page`, kept across a reload of that page):
  // an entry another page made (one that loaded this one, see `load`) is that page's, and
  // going to it loads it again.
  const LOADED = 'mvvm.loaded';
  const pageId = (history.state && history.state.page) || Math.random().toString(36).slice(2) + Date.now().toString(36);
  const entry = (d) => ({ depth: d, page: pageId });
  // The history the server drew the page with: [depth, title, addresses] (or none).
  const initialHistory = body.dataset.history ? JSON.parse(body.dataset.history) : null;
  putBackTheLoader();
  let historyDepth = (history.state && history.state.depth) || 1;
  let depth = historyDepth, urls = null, traversing = false;
  if (!history.state) history.replaceState(entry(1), '');
  let recovery = null;            // after a restart: what the fields held, restored once built

  // Another address, as a new page, in this entry's place (Document.load). The new page is told,
  // in this tab's sessionStorage, which address and entry it replaced (see `putBackTheLoader`).
  function load(address) {
    const target = new URL(base + address, location.href);
    try {
      sessionStorage.setItem(LOADED, JSON.stringify({
        from: here(), to: target.pathname + target.search, depth: historyDepth, page: pageId, at: Date.now(),
      }));
    } catch (e) { /* no storage here: Back then leaves this address behind */ }
    location.replace(target.href);
  }

  // Signed in (Document.handOffSignIn): the one-time code is traded for the sign-in cookie,
  // which the server sets HttpOnly (this script never sees it), then the address the sign-in
  // leads to (this one when null) is loaded as a new page, whose session is signed in.
  function signIn(code, next) {
    fetch(base + '/mvvm-sign-in', { method: 'POST', body: code, credentials: 'same-origin', headers: { 'Content-Type': 'text/plain' } })
      .then((answer) => {
        if (!answer.ok) throw new Error(String(answer.status));
        if (next === null) location.reload(); else load(next);
      })
      .catch(() => showBanner('Signing in could not be completed. Reload the page and sign in again.', true));
  }

  // A page loaded by another, in its entry: unless its own screens put the loader's address
  // back just below its first (the showcase's Person puts the launcher there), an entry for
  // the loader goes below this page's, so Back returns to it (loaded again). Only in a new
  // entry (not a reload), and only for the address that was loaded, within a minute.
  function putBackTheLoader() {
    if (history.state) return;
    let came = null;
    try {
      came = JSON.parse(sessionStorage.getItem(LOADED) || 'null');
      sessionStorage.removeItem(LOADED);
    } catch (e) { return; }
    if (!came || came.to !== location.pathname + location.search || !(Date.now() - came.at < 60000)) return;
    const initial = initialHistory;
    const below = initial && initial[2] && initial[0] >= 2 ? initial[2][initial[0] - 2] : null;
    if (below === came.from || here() === came.from) return;
    const address = location.href;
    try {
      history.replaceState({ depth: came.depth, page: came.page }, '', base + came.from);
      history.pushState(entry(1), '', address);
    } catch (e) {
      // Not an address of this site (a forged record): this entry stays as it was.
      history.replaceState(null, '', address);
    }
  }

  // A notice at the top of the page; with `reload`, a Reload button; with `dismiss`, an OK that
  // hides it (a notice the person must read stays until they do).
  let mustRead = null;             // a notice kept until the person says they read it (actions lost)
  function showBanner(text, reload, dismiss) {
    if (!text && mustRead) { text = mustRead; dismiss = true; }   // what hid a notice gives it back
    if (!text) { banner.hidden = true; banner.textContent = ''; return; }
    banner.textContent = text + ' ';
    const add = (label, act) => {
      const button = document.createElement('button');
      button.textContent = label;
      button.onclick = act;
      banner.appendChild(button);
    };
    if (reload) add('Reload', () => location.reload());
    if (dismiss) add('OK', () => { mustRead = null; showBanner(null); });
    banner.hidden = false;
  }

  // An Enter a busy field did not take (its action refuses while it runs, a login pressed
  // twice): said in a notice that goes after a few seconds, unless the page says something more
  // important meanwhile (connection lost, actions lost).
  let refusedNotice = null;
  function refusedEnter(el) {
    if (!banner.hidden && banner.textContent && banner.textContent !== refusedNotice + ' ') return;
    refusedNotice = describe({ t: 's', id: el.id }) + ' was not applied: what it started is still running. Press Enter again once it is done.';
    showBanner(refusedNotice);
    const shown = refusedNotice;
    setTimeout(() => { if (refusedNotice === shown && banner.textContent === shown + ' ') { refusedNotice = null; showBanner(null); } }, 5000);
  }

  // What an action was, in the person's words, to say which ones were lost: the control's name
  // as it was when sent (“Delete Buy milk”, Enter in “New to-do”).
  function describe(message) {
    const el = document.getElementById(message.id);
    const named = el && (el.getAttribute('aria-label') || el.textContent || el.getAttribute('placeholder') || '').trim().replace(/\s+/g, ' ');
    const name = '\u201c' + (named ? (named.length > 40 ? named.slice(0, 39) + '\u2026' : named) : 'a control') + '\u201d';
    switch (message.t) {
      case 's': return 'Enter in ' + name;
      case 'g': return 'a change to ' + name;
      case 'k': return 'the key ' + (message.v === ' ' ? 'Space' : message.v) + ' on ' + name;
      default: return name;
    }
  }

  // While the page has no connection its controls do not pretend: a button, a checkbox, a
  // choice, a clickable row is disabled (a checkbox is not ticked by a click that would be
  // undone), and no click, submit or key is queued; text fields stay as they are, and what is
  // typed is kept and sent once the page is back. The controls are given back as they were,
  // before the server's first frame, which then says what is enabled.
  const CONTROLS = 'button, input[type=checkbox], input[type=radio], select';
  const ACTING = '[data-click], [role=tab], [data-mvvm-on~="click"], a[data-query]';
  function setOffline(now) {
    if (offline === now) return;
    offline = now;
    body.classList.toggle('mvvm-offline', now);
    if (now) {
      for (const el of root.querySelectorAll(CONTROLS)) {
        if (!el.disabled) { el.disabled = true; el.setAttribute('data-mvvm-offline', ''); }
      }
      for (const el of root.querySelectorAll(ACTING)) {
        if (!el.matches(CONTROLS) && el.getAttribute('aria-disabled') !== 'true') {
          el.setAttribute('aria-disabled', 'true');
          el.setAttribute('data-mvvm-offline', '');
        }
      }
    } else {
      for (const el of root.querySelectorAll('[data-mvvm-offline]')) {
        el.removeAttribute('data-mvvm-offline');
        if (el.matches(CONTROLS)) el.disabled = false; else el.removeAttribute('aria-disabled');
      }
    }
  }

  // Backoff with jitter: 100 ms, 200, 400… up to 3 s, each drawn from its upper half, so that
  // the pages of a restarted server do not all come back in the same instant. While the server
  // is down, each attempt is a failed WebSocket, which the browser itself logs in the console
  // (a page cannot silence it): one line per attempt, about one every 2 s once backed off.
  function reconnectLater() {
    setOffline(true);
    showBanner((restarting ? 'The server is restarting. Reconnecting…' : 'Connection lost. Reconnecting…')
      + ' Buttons work again once it is back; what you type is kept.');
    const ceiling = Math.min(3000, 100 * Math.pow(2, retry++));
    setTimeout(connect, ceiling / 2 + Math.random() * ceiling / 2);
  }

  function connect() {
    if (closing || expired) return;
    let socket;
    try {
      socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + base + '/ws');
    } catch (error) {                               // refused before it starts (a policy, say)
      reconnectLater();
      return;
    }
    // A socket that neither opens nor fails (a proxy that holds it, a policy that blocks it
    // silently) is given up after 5 s, and the page tries again.
    const watchdog = setTimeout(() => {
      if (ws !== socket || socket.readyState === 1) return;
      socket.onclose = null;
      try { socket.close(); } catch (error) { /* already gone */ }
      ws = null;
      reconnectLater();
    }, 5000);
    ws = socket;
    socket.onopen = () => {
      clearTimeout(watchdog);
      retry = 0;
      restarting = false;
      setOffline(false);
      rawSend(JSON.stringify({ t: 'hello', s: session, q: frame, p: here(), n: seq }));
      for (const m of unacked) rawSend(m.text);     // in order; the server skips handled ones
      showBanner(null);
    };
    socket.onmessage = (event) => {
      stats.bytesIn += event.data.length;
      let message;
      try { message = JSON.parse(event.data); } catch (e) { console.error('bad frame', e); return; }
      receive(message);
    };
    socket.onclose = (event) => {
      if (ws === socket) ws = null;
      // The close codes seen (the last 20): 1001 is a server stopping gracefully.
      stats.closes.push(event.code);
      if (stats.closes.length > 20) stats.closes.shift();
      if (event.code === 1001) restarting = true;
      if (closing || expired) return;
      reconnectLater();
    };
  }

  function rawSend(text) {
    if (ws && ws.readyState === 1) { ws.send(text); stats.bytesOut += text.length; }
  }

  // Fields changed without an input event (autofill, a script) reach the server first.
  function syncFields(whileTyping) {
    for (const input of root.querySelectorAll(FIELDS)) {
      if (!known.has(input.id)) known.set(input.id, input.defaultValue);
      if (whileTyping && typingYear(input)) continue;   // the second's look waits for the year
      if (known.get(input.id) !== input.value) send({ t: 'i', id: input.id, v: input.value });
    }
  }

  // Acts on the server. While offline, an action (a click, a submit, a key, a change an element
  // asked for) is not sent and not queued: the page's controls are disabled then, and one that
  // is not (a custom element) does nothing; an edit is queued.
  const ACTIONS = 'csgk';          // a click, a submit, a change, a key: what acts on the server
  function send(message) {
    if (offline && ACTIONS.includes(message.t)) return;
    if (message.t === 'c' || message.t === 's') syncFields();
    if (message.t === 'i') known.set(message.id, message.v);
    message.n = ++seq;
    message.q = frame;                              // the frames applied: the server may forget them
    const text = JSON.stringify(message);
    // An edit typed while offline replaces the one before it only if that one is the last
    // message queued (a submit or click queued after it must keep its input before it).
    const last = unacked[unacked.length - 1];
    if (message.t === 'i' && last && last.kind === 'i' && last.id === message.id && !last.sent) {
      unacked.pop();
      sentAt.delete(last.n);
    }
    const open = !!(ws && ws.readyState === 1);
    // The element acted on shows that it waits for the server's answer until it comes.
    const el = (message.t === 'c' || message.t === 's') && document.getElementById(message.id);
    if (el) el.classList.add('mvvm-loading');
    unacked.push({ n: seq, text, id: message.id, kind: message.t, sent: open, el, what: ACTIONS.includes(message.t) ? describe(message) : null });
    sentAt.set(seq, performance.now());
    rawSend(text);
    if (open) framesSeen = frame;
  }

  // The server keeps each frame it sent until the page says it has it (to send again after a
  // reconnect what a dropped connection lost). Every message says so (its `q`); a page that has
  // nothing to send says so once, a second after the frames stop, so an idle tab costs the
  // server no frames.
  function frameApplied() {
    if (frameAckTimer) return;
    frameAckTimer = setTimeout(() => {
      frameAckTimer = null;
      if (frame > framesSeen && ws && ws.readyState === 1) {
        rawSend(JSON.stringify({ t: 'a', q: frame }));
        framesSeen = frame;
        stats.frameAcks++;
      }
    }, 1000);
  }

  function acknowledge(a) {
    if (unacked.length && unacked[0].n <= a) {
      for (const m of unacked) if (m.n <= a && m.el) m.el.classList.remove('mvvm-loading');
      unacked = unacked.filter((m) => m.n > a);
    }
    const now = performance.now();
    for (const [n, t] of sentAt) {
      if (n > a) break;
      stats.latencies.push(now - t);
      sentAt.delete(n);
    }
  }

  function pendingInput(id, after) {
    return unacked.some((m) => m.kind === 'i' && m.id === id && m.n > after);
  }

  // A field's text when Enter submitted it, until the server has handled that submit: keys typed
  // right after Enter are kept, and what the server then does to the submitted text (a to-do's
  // field cleared on Enter) applies to that text, not to the keys after it.
  const submitted = new Map();    // field id -> {n, value}

  function receive(m) {
    if (m.t === 'p') {
      if (m.s <= frame) return;                    // a frame already applied
      if (m.s !== frame + 1) {                     // a frame went missing: catch up
        if (ws) ws.close();
        return;
      }
      frame = m.s;
      for (const op of m.o) apply(op, m.a);
      for (const [id, s] of submitted) if (s.n <= m.a) submitted.delete(id);   // handled
      stats.frames++;
      stats.applied += m.o.length;
      acknowledge(m.a);
      afterChange();
      frameApplied();
    } else if (m.t === 'r') {
      reset(m);
    } else if (m.t === 'x') {
      expired = true;
      setOffline(true);
      showBanner(m.why || 'This page\u2019s session has ended.', true);
    }
  }

  function apply(op, ack) {
    if (op[0] === 'h') { setHistory(op[1], op[2], op[3]); return; }
    if (op[0] === 'u') { upload(op); return; }
    if (op[0] === 'l') { load(op[1]); return; }
    if (op[0] === 's') { signIn(op[1], op[2]); return; }
    if (op[0] === 'o') { location.reload(); return; }
    const el = document.getElementById(op[1]);
    if (!el) return;
    switch (op[0]) {
      case 't': el.textContent = op[2]; markLanguages(el); break;
      case 'a':
        if (op[3] === null) el.removeAttribute(op[2]); else el.setAttribute(op[2], op[3]);
        if (op[2] === 'checked') el.checked = op[3] !== null;   // the attribute alone stops counting once clicked
        if (op[2] === 'data-mvvm-refused' && op[3] !== null) refusedEnter(el);   // the server did not apply an Enter
        break;
      case 'v':
        if (!pendingInput(op[1], ack)) {
          known.set(op[1], op[2]);
          if (el.value !== op[2]) el.value = op[2];
        } else {
          // Typed after Enter, and the server answered the submit with a new text for the field:
          // that text, then the keys typed since (the server gets the result).
          const s = submitted.get(op[1]);
          if (s && s.n <= ack && op[2] !== s.value && el.value.startsWith(s.value)) {
            el.value = op[2] + el.value.slice(s.value.length);
            send({ t: 'i', id: op[1], v: el.value });
          }
        }
        break;
      case 'c': keepFocus(el, el, () => { el.innerHTML = op[2]; }); markLanguages(el); break;
      case '+': { const last = el.lastChild; el.insertAdjacentHTML('beforeend', op[2]); markNew(el, last, null); break; }
      case 'i': { const before = el.previousSibling; el.insertAdjacentHTML('beforebegin', op[2]); markNew(el.parentNode, before, el); break; }
      case 'r': {
        const parent = el.parentNode, before = el.previousSibling, after = el.nextSibling;
        keepFocus(el, parent, () => { el.outerHTML = op[2]; });
        markNew(parent, before, after);
        break;
      }
      case '-': el.remove(); break;
      case 'f': el.focus(); break;
    }
  }

  // The nodes of `parent` between `before` and `after` (exclusive; null: its first, its last):
  // what a patch has just inserted, marked for their languages.
  function markNew(parent, before, after) {
    if (!otherLanguages.length) return;
    for (let node = before ? before.nextSibling : parent.firstChild; node && node !== after; node = node.nextSibling) {
      if (node.nodeType === Node.TEXT_NODE) markText(node); else markLanguages(node);
    }
  }

  // A row the keyboard is on keeps the focus when it is redrawn: it is found again by its key.
  function keepFocus(el, scope, change) {
    const active = document.activeElement;
    const row = active && el.contains(active) && active.closest('[data-key]');
    const key = row && row.getAttribute('data-key');
    const part = row && active !== row && active.getAttribute('data-part');   // its checkbox, a button
    change();
    if (key && scope) {
      const again = [...scope.querySelectorAll('[data-key]')].find((e) => e.getAttribute('data-key') === key);
      const inner = again && part && again.querySelector('[data-part="' + part + '"]');
      if (inner) inner.focus(); else if (again) again.focus();
    }
  }

  function reset(m) {
    // Keep what the user typed: fields with edits the server has not acknowledged, and
    // password fields (their value is never in the HTML).
    const keep = new Map();
    for (const input of root.querySelectorAll(FIELDS)) {
      if (input.type === 'password' || pendingInput(input.id, m.a)) keep.set(input.id, input.value);
    }
    if (m.sid) {
      // The server restarted and this page now has a new session, built from its address:
      // what the fields held is put back once its screens are built.
      recovery = new Map();
      for (const input of root.querySelectorAll(NAMED)) recovery.set(namedKey(input), namedValue(input));
      for (const tabs of root.querySelectorAll(SEGMENTS)) recovery.set(segmentsKey(tabs), segmentChosen(tabs));
      session = m.sid;
      body.dataset.session = session;
      framesSeen = 0;                               // the new session numbers its frames anew
      // Actions sent just before the page knew the connection was gone: their session is
      // gone, and the new one cannot know what they meant (its screens are new). Said below.
      const lost = unacked.filter((u) => ACTIONS.includes(u.kind)).map((u) => u.what);
      unacked = unacked.filter((u) => u.kind !== 'i');
      stats.actionsLost += lost.length;
      // Said to the person using the page: what happened, and what became of what they did,
      // naming each action lost; that stays until they say they read it.
      const said = 'Reconnected after a server restart or a long break, so the page was set up again. What you typed is still here.'
        + (lost.length ? ' What you did as the connection dropped did not reach the server: ' + lost.join(', ')
          + '. Please do ' + (lost.length === 1 ? 'it' : 'them') + ' again.' : '');
      if (lost.length) mustRead = said;
      showBanner(said, false, lost.length > 0);
      if (!lost.length) setTimeout(() => { if (banner.textContent.startsWith('Reconnected')) showBanner(null); }, 4000);
    }
    const focused = document.activeElement && document.activeElement.id;
    const selection = focused && document.activeElement.selectionStart;
    root.innerHTML = m.html;
    markLanguages(root);
    rememberFields();
    for (const [id, value] of keep) { const el = document.getElementById(id); if (el) el.value = value; }
    if (focused) {
      const el = document.getElementById(focused);
      if (el) { el.focus(); if (selection != null && el.setSelectionRange) el.setSelectionRange(selection, selection); }
    }
    frame = m.s;
    stats.resets++;
    if (m.h) setHistory(m.h[0], m.h[1], m.h[2]);
    acknowledge(m.a);
    listState.clear();
    submitted.clear();
    afterChange();
    frameApplied();
  }

  function here() {
    const path = location.pathname;
    return (base && path.startsWith(base) ? (path.slice(base.length) || '/') : path) + location.search;
  }

  function setHistory(d, title, list) {
    document.title = title + (body.dataset.titleSuffix || '');
    depth = d;
    if (list) urls = list;
    reconcileHistory();
    if (recovery) recover();
  }

  // A button drawn as a link goes to the page's address with its query items set (an empty
  // value removes one): kept in step with the address, so a new tab opens what a click shows.
  function updateLinks() {
    // A row's link: its path under this page's address (/goods → /goods/2).
    for (const a of root.querySelectorAll('a[data-path]')) {
      const href = location.pathname.replace(/\/+$/, '') + '/' + a.getAttribute('data-path');
      if (a.getAttribute('href') !== href) a.setAttribute('href', href);
    }
    for (const a of root.querySelectorAll('a[data-query]')) {
      const url = new URL(location.href);
      for (const [name, value] of new URLSearchParams(a.getAttribute('data-query'))) {
        if (value) url.searchParams.set(name, value); else url.searchParams.delete(name);
      }
      const href = url.pathname + url.search;
      if (a.getAttribute('href') !== href) a.setAttribute('href', href);
    }
  }

  function reconcileHistory() {
    updateLinksSoon();
    if (traversing) return;
    const at = (d) => (urls ? urls[d - 1] : undefined);
    const full = (d) => base + at(d);
    if (depth > historyDepth) {
      if (urls && here() !== at(historyDepth)) history.replaceState(entry(historyDepth), '', full(historyDepth));
      for (let i = historyDepth + 1; i <= depth; i++) history.pushState(entry(i), '', full(i));
      historyDepth = depth;
    } else if (depth < historyDepth) {
      traversing = true;
      history.go(depth - historyDepth);
    } else if (urls && here() !== at(depth)) {
      history.replaceState(entry(depth), '', full(depth));
    }
  }

  // What a restart gives back: each named control's value (a checkbox's, whether it is
  // checked), found again by its name (a checkbox of a group, by its name and value).
  const NAMED = 'input[name], textarea[name], select[name]';
  function namedKey(input) { return input.type === 'checkbox' ? input.name + '=' + input.value : input.name; }
  function namedValue(input) { return input.type === 'checkbox' ? String(input.checked) : input.value; }
  // A choice's segments, by the choice's name: the index of the one chosen.
  const SEGMENTS = '[role=tablist][data-name]';
  function segmentsKey(tabs) { return 'segments:' + tabs.dataset.name; }
  function segmentChosen(tabs) {
    const chosen = tabs.querySelector('[aria-selected=true]');
    return chosen ? chosen.dataset.i : null;
  }

  // After a restart: each control the rebuilt screen has that held something else gets it
  // back, and the server hears it as the person's: typed text as typed, a checkbox or a
  // picker as changed.
  function recover() {
    const held = recovery;
    recovery = null;
    for (const input of root.querySelectorAll('input[name][id], textarea[name][id], select[name][id]')) {
      const key = namedKey(input);
      if (!held.has(key) || namedValue(input) === held.get(key)) continue;
      if (input.type === 'checkbox') {
        input.checked = held.get(key) === 'true';
        send({ t: 'g', id: input.id, v: held.get(key) });
      } else if (input.tagName === 'SELECT') {
        input.value = held.get(key);
        send({ t: 'g', id: input.id, v: input.value });
      } else {
        input.value = held.get(key);
        send({ t: 'i', id: input.id, v: input.value });
      }
    }
    for (const tabs of root.querySelectorAll(SEGMENTS)) {
      const key = segmentsKey(tabs);
      const segment = held.has(key) && tabs.querySelector('[data-i="' + held.get(key) + '"][id]');
      if (segment && segmentChosen(tabs) !== held.get(key)) send({ t: 'c', id: segment.id });
    }
  }

  window.addEventListener('popstate', (event) => {
    if (event.state && event.state.page && event.state.page !== pageId) {
      location.reload();                            // another page's entry: that page, again
      return;
    }
    const d = (event.state && event.state.depth) || 1;
    historyDepth = d;
    if (traversing) {                               // the page's own traversal landed
      traversing = false;
      reconcileHistory();
    } else if (d < depth && (!urls || urls[d - 1] === here())) {
      send({ t: 'b', d });                          // the user went back to a screen below
    } else if (urls) {
      send({ t: 'u', d, p: here() });               // forward, or an entry from before a reload
    } else if (d > depth) {
      traversing = true;                            // no addresses: those pages are gone
      history.go(depth - d);
    }
  });

  // Files (a file field): each file chosen (or dropped on the input) is offered to the server,
  // its name and size before any byte: {t:'f', id, f: the page's number for it, p, l}. The
  // server refuses it (["u", id, number, null, 0]: forget it) or tells the page to send it from
  // an offset in chunks tagged with a key (["u", id, number, key, offset]), and answers each
  // chunk with the offset it has: at most WINDOW chunks of CHUNK bytes are on their way. A
  // chunk is binary: the key's 16 bytes, the offset (8 bytes, big-endian), the bytes.
  const CHUNK = 32 * 1024, WINDOW = 4;
  const files = new Map();        // "input id number" -> {file, key, sent, taken, reading}
  let fileNumber = 0;
  function offerFiles(input) {
    for (const file of input.files) {
      const number = ++fileNumber;
      files.set(input.id + ' ' + number, { file, key: null, sent: 0, taken: 0, reading: false });
      send({ t: 'f', id: input.id, f: number, p: file.name, l: file.size });
    }
    input.value = '';               // the server lists what it took; the same file may come again
  }
  function upload(op) {
    const name = op[1] + ' ' + op[2], u = files.get(name);
    if (!u) return;
    if (op[3] === null) { files.delete(name); return; }
    if (u.key !== op[3]) { u.key = op[3]; u.sent = op[4]; u.taken = op[4]; }
    u.taken = Math.max(u.taken, op[4]);
    pump(name, u);
  }
  async function pump(name, u) {
    if (u.reading) return;
    u.reading = true;
    try {
      const socket = ws;
      while (files.get(name) === u && ws === socket && socket && socket.readyState === 1
             && u.sent < u.file.size && u.sent - u.taken < CHUNK * WINDOW) {
        const start = u.sent, end = Math.min(u.file.size, start + CHUNK);
        const bytes = new Uint8Array(await u.file.slice(start, end).arrayBuffer());
        if (files.get(name) !== u || ws !== socket || socket.readyState !== 1) break;
        const chunk = new Uint8Array(24 + bytes.length);
        for (let i = 0; i < 16; i++) chunk[i] = parseInt(u.key.substr(i * 2, 2), 16);
        new DataView(chunk.buffer).setBigUint64(16, BigInt(start));
        chunk.set(bytes, 24);
        socket.send(chunk);
        stats.bytesOut += chunk.length;
        u.sent = end;
      }
    } catch (error) {
      console.error('could not read a file', error);
    } finally {
      u.reading = false;
    }
  }

  // Every way a field changes: typing, paste, the end of an IME composition (an input event),
  // and autofill or a picker (a change event, sent when the value is not what the server has).
  document.addEventListener('input', (event) => {
    const el = event.target;
    if (typingYear(el)) return;
    if (el.id && el.matches(FIELDS)) send({ t: 'i', id: el.id, v: el.value });
  });
  // While a person types a date's year digit by digit, Chromium reports each step as a whole
  // day (the year 0002, then 0020, 0202, 2026): a year still on its way is not sent, so a range
  // cannot refuse it and restate the field under the typing. It is sent as the person leaves
  // the field (or before a click): then the server refuses it, and says why.
  function typingYear(el) {
    return el.type === 'date' && /^0/.test(el.value) && el === document.activeElement;
  }
  document.addEventListener('focusout', (event) => {
    const el = event.target;
    if (el.type === 'date' && el.id && root.contains(el) && known.get(el.id) !== el.value) send({ t: 'i', id: el.id, v: el.value });
  });
  document.addEventListener('change', (event) => {
    if (event.target.type === 'file' && event.target.id && root.contains(event.target)) { offerFiles(event.target); return; }
    // An element that asked for changes (data-mvvm-on="change"; a custom element's own event
    // reaches its host) gets its value sent.
    const declared = event.target.closest && event.target.closest('[data-mvvm-on~="change"][id]');
    if (typingYear(event.target)) return;
    if (declared && root.contains(declared)) {
      const checkable = declared.type === 'checkbox' || declared.type === 'radio';
      send({ t: 'g', id: declared.id, v: checkable ? String(declared.checked) : String(declared.value ?? '') });
      return;
    }
    const el = event.target;
    if (el.id && el.matches(FIELDS) && known.get(el.id) !== el.value) send({ t: 'i', id: el.id, v: el.value });
  });

  // A form that asked for its submit (data-mvvm-on="submit") sends it instead of navigating.
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (form.matches && form.matches('[data-mvvm-on~="submit"][id]') && root.contains(form)) {
      event.preventDefault();
      send({ t: 's', id: form.id });
    }
  });

  function clickable(target) {
    // A checkbox or a field inside a clickable row is its own control, not a click on the row.
    const control = target.closest && target.closest('input, select, textarea');
    if (control && !control.matches('[data-mvvm-on~="click"]')) return null;
    const el = target.closest && target.closest('button[id], a[data-query][id], a[data-press][id], [data-click][id], [role=tab], [data-mvvm-on~="click"][id]');
    if (!el || el.disabled || el.getAttribute('aria-busy') === 'true' || el.getAttribute('aria-disabled') === 'true' || !root.contains(el)) return null;
    return el;
  }

  // A field changed behind the page's back (a script, an autofill that fires no event) is also
  // found within a second, so what the server enables follows it (a browser dispatches no
  // click on a disabled button, so a click cannot be the only moment to look).
  setInterval(() => { if (ws && ws.readyState === 1) syncFields(true); }, 1000);

  document.addEventListener('click', (event) => {
    // A button drawn as a link (it changes the address): a plain click presses it; one that
    // opens a new tab or window is the browser's, which follows the link.
    const link = event.target.closest && event.target.closest('a[data-query], a[data-path]');
    if (link && root.contains(link)) {
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
    }
    syncFields();
    const el = clickable(event.target);
    if (el) send({ t: 'c', id: el.id });
  });

  document.addEventListener('keydown', (event) => {
    const el = event.target;
    if (event.isComposing) return;                  // Enter that ends an IME composition
    // Keys an element asked for (data-mvvm-keys="Enter Escape Space") are the element's.
    const keyed = el.closest && el.closest('[data-mvvm-keys][id]');
    if (keyed && root.contains(keyed)) {
      const name = event.key === ' ' ? 'Space' : event.key;
      if (keyed.getAttribute('data-mvvm-keys').split(' ').includes(name)) {
        event.preventDefault();
        send({ t: 'k', id: keyed.id, v: event.key });
        return;
      }
    }
    // A screen's shortcut (a plain key, as the terminal's `r`): anywhere on the page but in a
    // field, without Ctrl, Alt or Meta (those stay the browser's own), while the page lists it.
    if (!event.ctrlKey && !event.metaKey && !event.altKey && event.key.length === 1 &&
        !(el.matches && el.matches(FIELDS + ', textarea, select, [contenteditable]'))) {
      // The shown page's (the pages under it are not in the document); none under a dialog.
      const page = !root.querySelector('.dialog[id]') && root.querySelector('[data-mvvm-shortcuts][id]');
      if (page && page.getAttribute('data-mvvm-shortcuts').split(' ').includes(event.key)) {
        event.preventDefault();
        send({ t: 'k', id: page.id, v: event.key });
        return;
      }
    }
    if (event.key === 'Enter' && el.id && el.matches(FIELDS) && el.tagName !== 'TEXTAREA') {   // a textarea's is a new line
      // Its action runs and takes no Enter: said, not sent.
      if (el.getAttribute('aria-busy') === 'true') { refusedEnter(el); return; }
      send({ t: 's', id: el.id });                  // after the field's text (see syncFields)
      if (el.hasAttribute('data-mvvm-clears')) {
        // The view model empties it (a to-do's title): at once, so the next keys are the next
        // item's, even before the server answers; the server gives the text back if it kept it.
        if (!offline) { el.value = ''; known.set(el.id, ''); }
      } else {
        submitted.set(el.id, { n: seq, value: el.value });
      }
    } else if ((event.key === 'Enter' || event.key === ' ') && el.matches && el.matches('[data-click][id], [data-mvvm-on~="click"][id]')) {
      event.preventDefault();
      send({ t: 'c', id: el.id });
    } else if ((event.key === 'ArrowLeft' || event.key === 'ArrowRight') && el.matches && el.matches('[role=tab]')) {
      // Tabs and segments, as a terminal's ←→ (and ARIA's tabs pattern): the one beside is
      // chosen and takes the focus.
      const tabs = [...el.parentNode.querySelectorAll(':scope > [role=tab]')];
      const next = tabs[tabs.indexOf(el) + (event.key === 'ArrowRight' ? 1 : -1)];
      event.preventDefault();
      if (next && !next.disabled) { next.focus(); next.click(); }
    } else if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && el.matches && el.matches('li.row [data-part]')) {
      // Rows, as a terminal's ↑↓: the focus moves to the same control (the title, the
      // checkbox, a button) of the row above or below that has it.
      const part = el.getAttribute('data-part');
      let row = el.closest('li.row'), next = null;
      while (!next && (row = event.key === 'ArrowDown' ? row.nextElementSibling : row.previousElementSibling)) {
        next = row.querySelector('[data-part="' + part + '"]');
      }
      event.preventDefault();
      if (next) next.focus();
    } else if (event.key === 'Escape') {
      const dialog = root.querySelector('.dialog[id]');
      if (dialog) send({ t: 'c', id: dialog.id });   // closes it without its button's action
      else if (depth > 1) history.back();
    }
  });

  // Lists: which rows are on screen, and whether the end is in view.
  let checkScheduled = false;
  function afterChange() {
    if (checkScheduled) return;
    checkScheduled = true;
    setTimeout(() => { checkScheduled = false; updateLinks(); checkLists(); }, 120);
  }
  // After the history changed (replaceState is synchronous): the links follow the new address.
  function updateLinksSoon() { setTimeout(updateLinks, 0); }
  document.addEventListener('scroll', afterChange, true);
  window.addEventListener('resize', afterChange);

  function checkLists() {
    // Not while the page waits for an answer (for up to a second): the server may be
    // replacing these very lists (a click that opens another page), and a report about a
    // list it removed would be refused. The answer's frame checks again.
    if (unacked.length && performance.now() - (sentAt.get(unacked[0].n) || 0) < 1000) { afterChange(); return; }
    const height = window.innerHeight;
    for (const list of root.querySelectorAll('[data-list][id]')) {
      if (list.offsetParent === null) continue;     // hidden (another tab)
      const rows = list.querySelectorAll(':scope > ul > li');
      const state = listState.get(list.id) || { f: -1, l: -1, endCount: -1, endInView: false };
      listState.set(list.id, state);
      let first = -1, last = -1;
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i].getBoundingClientRect();
        if (r.bottom < 0) continue;
        if (r.top > height) break;
        if (first < 0) first = i;
        last = i;
      }
      if (first >= 0 && (first !== state.f || last !== state.l)) {
        state.f = first; state.l = last;
        send({ t: 'v', id: list.id, f: first, l: last });
      }
      // The end asks for more when it comes into view, or is still in view with new rows
      // (a short page). A page that failed is asked for again by scrolling away and back.
      const end = list.querySelector(':scope > .list-end');
      const inView = !!end && !end.hidden && end.getBoundingClientRect().top < height;
      if (inView && (!state.endInView || state.endCount !== rows.length)) {
        state.endCount = rows.length;
        send({ t: 'e', id: list.id });
      }
      state.endInView = inView;
    }
  }

  window.addEventListener('pagehide', (event) => {
    if (event.persisted) return;
    closing = true;
    rawSend(JSON.stringify({ t: 'bye' }));
  });

  // For tests and benchmarks: what the page measured.
  window.mvvm = {
    stats,
    frame: () => frame,
    framesSeen: () => framesSeen,
    pending: () => unacked.length,
    pendingActions: () => unacked.filter((u) => ACTIONS.includes(u.kind)).length,
    connected: () => !!(ws && ws.readyState === 1) && !offline,
    drop: () => { if (ws) ws.close(); },
  };

  if (initialHistory) setHistory(initialHistory[0], initialHistory[1], initialHistory[2]);
  syncFields();                                     // typed before this script ran: sent first
  connect();
  afterChange();
})();

// The web table's page: a renderer of what the server sends.
//
// It never decides what is legal: every button is an action the server's
// menu offered (core/chat/actions.py), sent back by its id with the table
// version it was shown on. Each message carries the page's proof (Telegram's
// initData, a player token, or a browser table's token); the server judges
// every one. Live: one WebSocket, reconnected with a growing pause; the newest
// state received is the one drawn (latest state wins).
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var params = new URLSearchParams(location.search);
  var hash = new URLSearchParams(location.hash.replace(/^#/, ""));
  var tg = window.Telegram && window.Telegram.WebApp;
  // The page's words as the server put them in the page for the browser's language: the
  // banners said before (or without) a socket read "connecting" and "offline", the raw keys.
  var texts = {};
  try { texts = JSON.parse(document.getElementById("page-texts").textContent) || {}; } catch (e) { texts = {}; }
  var auth = null;
  var tableToken = params.get("t");
  var ws = null, retry = 0, state = null, pending = null, drawing = false;
  // The browser's whole language tag: the server knows zh-TW from zh-CN and pt-BR from pt
  // (cut to two letters, a zh-TW reader was given Simplified Chinese).
  var lang = navigator.language || "en";
  window.__states = [];  // what was drawn, for tests
  // When each version was drawn and each tap was sent (epoch ms): bench/web.py reads them.
  window.__timing = { shown: {}, taps: [] };
  // Every address the page asks for is relative to the page itself (never "/..."): served
  // under a reverse proxy's sub-path (https://example.org/uno/) it stays under it.
  var here = function (rest) { return new URL(rest, location.href.split(/[?#]/)[0]).href; };
  var clock = function () { return performance.timeOrigin + performance.now(); };

  function t(key, n, extra) {
    var s = texts[key] || key;
    if (n !== undefined) s = s.replace("{n}", n);
    if (extra) for (var k in extra) s = s.replace("{" + k + "}", extra[k]);
    return s;
  }
  function applyTexts() {
    document.querySelectorAll("[data-t]").forEach(function (el) {
      var key = el.getAttribute("data-t");
      if (texts[key]) el.textContent = texts[key];
    });
    document.querySelectorAll("[data-t-label]").forEach(function (el) {  // names read out, not shown
      var key = el.getAttribute("data-t-label");
      if (texts[key]) el.setAttribute("aria-label", texts[key]);
    });
    if (texts.title) document.title = texts.title;
    document.documentElement.lang = lang.replace("_", "-");
  }
  // The writing direction the server says for the language (Arabic: right to left);
  // until it answers, the browser's language's.
  function setDir(dir) { document.documentElement.dir = dir === "rtl" ? "rtl" : "ltr"; }
  setDir(/^(ar|he|fa|ur)\b/i.test(navigator.language || "") ? "rtl" : "ltr");
  function show(id) {
    ["landing", "name-step", "message", "table"].forEach(function (s) { $(s).hidden = s !== id; });
  }
  // The connection's state, in a status line at the top: a live region that stays in the page
  // (empty, it takes no room), so a screen reader hears each change; toggling `hidden` with the
  // text took it out of the accessibility tree just as it spoke. A line that says the table is
  // back ("Connected again") goes by itself after a few seconds; "Connection lost" stays.
  var bannerGone = null, BANNER_BACK_MS = 4000;
  function banner(text, brief) {
    clearTimeout(bannerGone);
    $("banner").textContent = text || "";
    $("banner").classList.toggle("back", !!brief);
    if (brief) bannerGone = setTimeout(function () { $("banner").textContent = ""; }, BANNER_BACK_MS);
  }
  window.__toasts = [];  // every line shown, for tests (a toast itself goes after 4 s)
  // Toasts: what a move told only you ("You drew ...") and refusals. Many arrive at once
  // (a run of draws, a few moves' notices): shown one after another they stacked over a
  // phone's whole page. So a message's lines share one toast, the same text again counts
  // on the toast already up (x2) rather than adding one, and at most TOASTS_SHOWN stay up
  // (the oldest goes). The screen shows them this way; a screen reader hears every line
  // from the live log #said (the toasts themselves are aria-hidden).
  var TOASTS_SHOWN = 3, SAID_KEPT = 20, TOAST_MS = 4000;
  function toast(text) { toasts([text]); }
  // Said to a screen reader only (the live log #said): lines the screen already shows elsewhere.
  function say(lines) {
    var said = $("said");
    lines.forEach(function (line) { var p = document.createElement("p"); p.textContent = line; said.appendChild(p); });
    while (said.childNodes.length > SAID_KEPT) said.removeChild(said.firstChild);
  }
  // What a screen reader hears as the table changes: the moves made since the table it last
  // drew (the list "Last moves" is drawn anew every time, and as a live region it read all
  // eight lines again at every move, or nothing), then "Your turn" once, when the turn comes
  // to this player. The tab's title says it too, for a player looking at another tab.
  var heard = null, myTurn = false, baseTitle = null;
  window.__said = [];  // what was announced, for tests
  function announce(s) {
    var now = s.recent || [], lines = [];
    if (heard !== null) {
      var overlap = Math.min(heard.length, now.length);
      while (overlap > 0 && heard.slice(heard.length - overlap).join("\n") !== now.slice(0, overlap).join("\n")) overlap--;
      lines = now.slice(overlap);
    }
    heard = now.slice();
    var mine = s.phase === "playing" && s.seat !== null && s.seat === s.turn && s.actions.length > 0;
    if (mine && !myTurn) {
      lines.push(t("your_turn"));
      // Felt in the hand, in Telegram, when the phone is not being looked at.
      if (tg && tg.HapticFeedback && tg.HapticFeedback.notificationOccurred) tg.HapticFeedback.notificationOccurred("success");
    }
    myTurn = mine;
    if (baseTitle === null || !mine) baseTitle = document.title.replace(/^▶ .*? · /, "");
    document.title = mine ? "▶ " + t("your_turn") + " · " + baseTitle : baseTitle;
    if (!lines.length) return;
    window.__said.push.apply(window.__said, lines);
    say(lines);
  }
  function toasts(lines) {
    lines = (lines || []).filter(Boolean);
    if (!lines.length) return;
    var said = $("said");
    lines.forEach(function (line) {
      window.__toasts.push(line);
      var p = document.createElement("p"); p.textContent = line; said.appendChild(p);
    });
    while (said.childNodes.length > SAID_KEPT) said.removeChild(said.firstChild);
    var box = $("toasts"), text = lines.join("\n"), last = box.lastElementChild;
    var el = last && last.dataset.text === text ? last : null;
    if (el) {
      el.dataset.count = String(Number(el.dataset.count || "1") + 1);
      el.querySelector(".times").textContent = "\u00d7" + el.dataset.count;
      clearTimeout(el._gone);
    } else {
      el = document.createElement("p");
      el.className = "toast"; el.dataset.text = text;
      var body = document.createElement("span"); body.textContent = text;
      var times = document.createElement("span"); times.className = "times";
      el.appendChild(body); el.appendChild(times);
      box.appendChild(el);
      while (box.childElementCount > TOASTS_SHOWN) box.removeChild(box.firstElementChild);
    }
    el._gone = setTimeout(function () { el.remove(); }, TOAST_MS);
  }

  // -- Telegram's theme ---------------------------------------------------------------------
  // Inside Telegram the page takes the app's colours (its light or dark theme, the user's
  // accent): the CSS reads --tg-theme-*. Telegram's script sets them when it has loaded;
  // they are set here at once from the launch parameters Telegram puts in the address
  // (tgWebAppThemeParams), so the page is never drawn in the wrong colours while the
  // script loads, nor all along when it cannot be reached. A theme changed while the page
  // is open (themeChanged) is followed too.
  function applyTheme(params, scheme) {
    if (!params || typeof params !== "object") return;
    var root = document.documentElement;
    Object.keys(params).forEach(function (key) {
      var value = String(params[key]);
      if (/^[a-z_]+$/.test(key) && /^#[0-9a-f]{3,8}$/i.test(value)) {
        root.style.setProperty("--tg-theme-" + key.replace(/_/g, "-"), value);
      }
    });
    // Light or dark as Telegram says, else as its background reads: the browser's own parts
    // (fields, scroll bars, the dialogs' backdrop) follow it.
    if (scheme !== "dark" && scheme !== "light" && /^#[0-9a-f]{6}$/i.test(params.bg_color || "")) {
      var n = parseInt(params.bg_color.slice(1), 16);
      scheme = (0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) < 128 ? "dark" : "light";
    }
    if (scheme === "dark" || scheme === "light") { root.style.colorScheme = scheme; root.setAttribute("data-scheme", scheme); }
  }
  (function () {
    var launch = null;
    try { launch = JSON.parse(hash.get("tgWebAppThemeParams") || "null"); } catch (e) { launch = null; }
    applyTheme(launch);
    if (tg && tg.themeParams && Object.keys(tg.themeParams).length) applyTheme(tg.themeParams, tg.colorScheme);
    if (tg && tg.onEvent) tg.onEvent("themeChanged", function () { applyTheme(tg.themeParams, tg.colorScheme); });
  })();

  // -- who am I: Telegram, a player link, a browser table's link -----------------------
  function initData() {
    if (tg && tg.initData) return tg.initData;
    return hash.get("tgWebAppData") || "";
  }
  function startAuth() {
    var data = initData();
    if (data) {
      if (tg && tg.ready) {
        tg.ready(); if (tg.expand) tg.expand();
        // A swipe down scrolls the hand and the moves: in Telegram it closed the Mini App mid-game.
        if (tg.disableVerticalSwipes) tg.disableVerticalSwipes();
      }
      return { init_data: data, table: params.get("tgWebAppStartParam") || "" };
    }
    if (params.get("p")) return { player: params.get("p") };
    if (tableToken) {
      var seat = localStorage.getItem("unobot.seat." + tableToken);
      return seat ? { player: seat } : { table: tableToken };
    }
    return null;
  }

  // -- the socket ---------------------------------------------------------------------------
  var lastTap = null;  // the id of the last move sent (marked as waiting if the store does not confirm it)
  function send(msg) {
    var from = tapFrom; tapFrom = null;  // the card whose picker sent this choice (it is marked)
    if (msg.type === "act" && held) return false;  // a move waits for the store: nothing else yet
    if (msg.type === "act" && sending) return false;  // one move at a time: a second tap is not a second move
    msg.auth = auth; msg.lang = lang;
    if (msg.type === "act") { lastTap = msg.id; window.__timing.taps.push({ version: msg.version, at: clock() }); }
    if (ws && ws.readyState === 1) {
      ws.send(JSON.stringify(msg));
      if (msg.type === "act") sent(msg, from);
      return true;
    }
    toast(t("offline"));
    return false;
  }
  // A move sent and not answered yet (a slow store, a slow network): the button pressed is
  // marked as on its way (aria-busy; drawn after a moment, so a quick answer does not blink)
  // and further taps wait, so a player who sees nothing happen does not tap again into a
  // "no longer on offer". Nothing says the move was made: the table the server sends says
  // that. Unanswered for STALLED_MS, the socket is taken for dead (a phone's network gone
  // without a word): it is closed and dialled again, and the table is asked for anew.
  var sending = null, tapFrom = null, STALLED_MS = 10000;
  function sent(msg, from) {
    from = from || msg.id;
    var button = document.querySelector('#hand [data-action="' + CSS.escape(from) + '"], #actions [data-id="'
      + CSS.escape(from) + '"]');
    if (button) { button.classList.add("sending"); button.setAttribute("aria-busy", "true"); }
    $("table").classList.add("sending");
    var socket = ws;
    sending = { id: msg.id, timer: setTimeout(function () {
      answered();
      if (ws === socket && socket) { banner(t("offline")); socket.close(); }
    }, STALLED_MS) };
  }
  function answered() {
    if (!sending) return;
    clearTimeout(sending.timer); sending = null;
    $("table").classList.remove("sending");
    document.querySelectorAll(".sending").forEach(function (b) { b.classList.remove("sending"); b.removeAttribute("aria-busy"); });
  }
  // Back online, or back to the page (a phone woke, Telegram reopened the Mini App): dialled
  // at once rather than at the end of the pause between tries, and an open socket is asked
  // for the table again (what it missed while asleep, it may never have been told).
  var redial = null, lost = false;
  // A socket may outlive a moment offline (a tunnel, a lift): back online it is asked for the
  // table again, and the line "Connection lost" gives way to "Connected again" once it came
  // (before, it stayed on a page that worked, as only a redial cleared it).
  window.addEventListener("online", function () {
    if (!auth) return;
    if (!ws) { clearTimeout(redial); connect(); } else if (ws.readyState === 1) send({ type: "hello" });
  });
  window.addEventListener("offline", function () { if (state) lost = true; banner(t("offline")); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible" || !auth) return;
    if (!ws) { clearTimeout(redial); connect(); } else if (ws.readyState === 1) send({ type: "hello" });
  });
  function connect() {
    banner(t("connecting"));
    var url = new URL("ws", location.href);  // beside the page: under a proxy's sub-path too
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(url.href);
    var socket = ws;
    ws.onopen = function () { retry = 0; socket.opened = true; banner(""); settingsAsked = false; send({ type: "hello" }); };
    ws.onmessage = function (ev) { receive(JSON.parse(ev.data)); };
    ws.onclose = function () {
      // A socket that was open and is lost: its return is said once the table is up to date
      // again (redialled), to everyone, not only as a line that silently goes away.
      if (socket.opened && state) lost = true;
      ws = null;
      banner(t("offline"));
      retry = Math.min(retry + 1, 8);
      answered();
      redial = setTimeout(connect, Math.min(300 * Math.pow(1.6, retry), 5000));
    };
  }
  function receive(m) {
    if (m.type === "state" || m.type === "refused" || m.type === "unconfirmed" || m.type === "done") answered();
    if (m.texts) texts = m.texts;
    if (m.lang) lang = m.lang;
    if (m.dir) setDir(m.dir);
    if (m.texts) applyTexts();
    if (m.type === "state") {
      pending = m; if (!drawing) { drawing = true; requestAnimationFrame(drawPending); }
      if (lost) { lost = false; banner(t("reconnected"), true); }
    }
    else if (m.type === "need_name") {
      // The share link's table: its variant and who sits there already, above the name asked for.
      $("invite-variant").textContent = m.variant || t("title");
      $("invite-names").textContent = (m.seats || []).join(", ");
      $("invite-seats").hidden = !(m.seats || []).length;
      show("name-step"); $("name").focus();
    }
    else if (m.type === "player") {
      localStorage.setItem("unobot.seat." + tableToken, m.token);
      auth = { player: m.token };
      send({ type: "hello" });
    } else if (m.type === "refused") {
      if (!state) { $("message").textContent = m.text; show("message"); }
      else toast(m.text);
      // Opened while the store could not answer: nothing was shown and the server holds no page
      // to send the table to once it can, so the page asks again by itself (the text says "try
      // again shortly"; without this it stayed on that text until reloaded).
      if (!state && STORE_DOWN.indexOf(m.code) >= 0) askAgain();
      if (m.code === "forged" || m.code === "expired" || m.code === "bad_link" || m.code === "other_game") {
        $("message").textContent = m.text; show("message");
      }
      if (m.code === "store_unconfirmed") waiting(m.text);
    } else if (m.type === "unconfirmed") waiting(m.text);
    else if (m.type === "notice") { toasts(m.lines); }
    else if (m.type === "settings") drawSettings(m);
  }
  var STORE_DOWN = ["store_unavailable", "store_refusing", "store_slow"], again = null, againPause = 1000;
  function askAgain() {
    if (again) return;
    again = setTimeout(function () {
      again = null;
      if (!state && ws && ws.readyState === 1) send({ type: "hello" });
    }, againPause);
    againPause = Math.min(againPause * 1.6, 8000);
  }
  function drawPending() {
    drawing = false; var s = pending; pending = null;
    if (s) { draw(s); if (!(s.version in window.__timing.shown)) window.__timing.shown[s.version] = clock(); }
  }

  // -- drawing the table --------------------------------------------------------------------
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function setStatus(node, text) { if (node.textContent !== text) node.textContent = text; }
  function draw(s) {
    state = s;
    window.__states.push(s);
    show("table");
    $("variant").textContent = s.variant || "";
    // A status line (a live region) is written only when its words change: written again at
    // every redraw, "🎉 Ana wins round 1!" was said again at every state between two rounds.
    // No game: the server says how one starts here ("Start one with /new" in a Telegram group,
    // the page's own "Play again" on a browser table).
    setStatus($("headline"), s.phase === "none" ? s.headline || t("no_game") : s.headline || "");
    // A browser table whose match is over (or where no game runs): besides core's "Play again"
    // (the same table, its seats kept), a new table from the landing page.
    $("again").hidden = !(tableToken && (s.phase === "finished" || s.phase === "none"));
    // No card on the table yet (the lobby) or no game: no colour, no direction to show (not
    // "–" and a made-up counter-clockwise); the board stays for a turn timer's clock only.
    $("board").hidden = !s.top && !s.timer_text && !s.round_length;
    $("facts").classList.toggle("no-card", !s.top);
    if (tableToken && s.phase === "lobby") {
      $("share").hidden = false;
      $("share-link").value = here("?t=" + tableToken);
    } else $("share").hidden = true;
    var top = $("top");
    if (s.top) {
      top.hidden = false;
      // The picture is the caption's card ("Top card: Red 5" is read once, not its alt text too).
      $("top-img").src = s.top.img;
      $("top-label").textContent = s.top.label;
    } else top.hidden = true;
    $("colour").textContent = s.color_emoji ? s.color_emoji + " " + s.color_name + (s.color ? " (" + s.color + ")" : "") : "–";
    $("colour").className = "card-fact colour c-" + (s.color || "none");
    $("direction").textContent = s.direction === 1 ? "↻ " + t("clockwise") : "↺ " + t("counter");
    $("pending").hidden = !s.pending;
    $("pending").textContent = s.pending ? t("pending", s.pending) : "";
    $("turn").textContent = s.turn_text || "";
    $("pile").textContent = s.phase === "playing" ? t("draw_pile", s.draw_size) + " · " + t("round", s.round) : "";
    drawClock(s);
    drawRoundClock(s);
    var seats = $("seats"); seats.textContent = "";
    s.seats.forEach(function (p) {
      var li = el("li", "seat" + (p.turn ? " turn" : "") + (p.next ? " next" : "") + (p.me ? " me" : ""));
      li.setAttribute("data-seat", p.seat);
      // Whose turn, for a screen reader: the seat is the current one (the ▶ glyph is not read out).
      if (p.turn) li.setAttribute("aria-current", "true");
      var mark = p.turn ? "▶ " : p.next ? "⏭ " : "";
      if (mark) { var glyph = el("span", "mark", mark); glyph.setAttribute("aria-hidden", "true"); li.appendChild(glyph); }
      li.appendChild(el("span", "who", p.name + (p.me ? " (" + t("you") + ")" : "")));
      // An AI seat's own level: said in the lobby, where the seats are set up (no cards are
      // dealt there to count); in a game the seat stays narrow (two a row on a phone) and
      // keeps it as its title.
      if (s.phase === "lobby") { if (p.level) li.appendChild(el("span", "level", p.level)); }
      else if (!p.left) li.appendChild(el("span", "count", p.count_text));
      if (p.level) li.title = p.level;
      if (p.uno) li.appendChild(el("span", "flag", "UNO"));
      if (p.left) li.appendChild(el("span", "flag", t("left")));
      else if (p.out) li.appendChild(el("span", "flag", t("out")));
      if (p.next) li.appendChild(el("span", "flag", t("next")));
      if (s.phase !== "lobby" && p.score) li.appendChild(el("span", "score", t("score") + " " + p.score));
      seats.appendChild(li);
    });
    var focused = focusKey();
    var actions = $("actions"); actions.textContent = "";
    s.actions.forEach(function (a) { actions.appendChild(actionButton(a)); });
    $("watching").hidden = s.seat !== null || s.phase === "none" || s.actions.length > 0;
    // A match over (or no game): nothing to do and no hand, so no empty "What you can do" and
    // "Your hand" above who won; during a game they stay, even empty, or the page would jump.
    var over = s.phase === "finished" || s.phase === "none";
    $("actions-box").hidden = over && !s.actions.length;  // after a match: "Play again" (core's)
    // The lobby deals no cards yet: an empty "Your hand" (and "Last moves") only pushed the
    // records below a phone's fold.
    $("hand-box").hidden = over || s.phase === "lobby" || (s.seat === null && !s.hand.length);
    $("recent-box").hidden = !(s.recent || []).length;
    var hand = $("hand"); hand.textContent = "";
    hand.classList.toggle("many", s.hand.length > MANY_CARDS);
    s.hand.forEach(function (h) {
      var b = el("button", "card" + (h.playable ? " playable" : " dim") + (h.new ? " new" : ""));
      // A button, as a screen reader names it (a "listitem" role here hid that the card is pressed to play).
      b.type = "button";
      b.setAttribute("data-code", h.code);
      var label = h.label + (h.count > 1 ? " ×" + h.count : "") + " · " + (h.playable ? t("playable") : t("not_playable"));
      b.setAttribute("aria-label", label); b.title = label;
      var img = el("img"); img.src = h.img; img.alt = ""; img.width = 88; img.height = 124;
      b.appendChild(img);
      b.appendChild(el("span", "code", h.code + (h.count > 1 ? " ×" + h.count : "")));
      if (h.playable) { b.setAttribute("data-action", h.action.id); b.onclick = function () { choose(h.action); }; }
      else b.setAttribute("aria-disabled", "true");
      hand.appendChild(b);
    });
    refocus(focused);
    // Tab comes into the hand at the card that has the focus, else at the first playable one.
    rove(hand.contains(document.activeElement) ? document.activeElement
      : hand.querySelector(".card.playable") || hand.firstElementChild);
    var recent = $("recent"); recent.textContent = "";
    (s.recent || []).slice().reverse().forEach(function (line) { recent.appendChild(el("li", "", line)); });
    announce(s);
    if ($("picker").open && $("picker").dataset.version !== String(s.version)) $("picker").close();
    // An admin of this table (the server says who) has the settings panel; its title is the
    // chats' "Rules here", sent with the panel (asked for once, then kept fresh).
    drawStop(s);
    waiting(s.unconfirmed || "");
    $("settings").hidden = !s.admin;
    if (s.admin && !settingsAsked) { settingsAsked = true; send({ type: "settings" }); }
  }

  // A move the store applied but has not confirmed (core/chat/unconfirmed.py): the table stays
  // as it was, the move tapped is marked as waiting, nothing can be pressed until the server
  // draws the table the store settled on (the move made, or lost); never drawn as made.
  // (aria-disabled, not disabled: a disabled button loses the keyboard's focus, and the
  // redraw after could not give it back; `send` holds every move meanwhile.)
  var held = false;
  function waiting(text) {
    var box = $("unconfirmed");
    box.textContent = text ? "⏳ " + text : ""; box.hidden = !text;
    held = !!text;
    $("table").classList.toggle("unconfirmed", held);
    if (!held) return;  // the buttons were just drawn anew, as the table offers them
    document.querySelectorAll("#actions button, #hand button, #stop-box button").forEach(function (b) {
      b.setAttribute("aria-disabled", "true");
    });
    if (!lastTap) return;
    var tapped = document.querySelector('#hand [data-action="' + CSS.escape(lastTap) + '"], #actions [data-id="'
      + CSS.escape(lastTap) + '"]');
    if (tapped) { tapped.classList.add("pending"); tapped.setAttribute("aria-busy", "true"); }
  }

  // -- Stop and Leave: core's `Menu.stop` (the creator or an admin) and `Menu.leave` (a seated
  // player, once the game is under way); each ends something for good, so core's question is
  // asked first.
  function drawStop(s) {
    var any = false;
    [["stop", s.stop], ["leave", s.leave]].forEach(function (pair) {
      var button = $(pair[0]), action = pair[1];
      button.hidden = !action;
      if (!action) return;
      any = true;
      button.textContent = action.label;
      button.onclick = function () {
        $("stop-text").textContent = action.confirm || action.label;
        $("stop-yes").textContent = action.label;
        $("stop-yes").onclick = function () {
          $("stop-confirm").close();
          send({ type: "act", id: action.id, version: s.version });
        };
        $("stop-confirm").showModal();
        $("stop-no").focus();
      };
    });
    $("stop-box").hidden = !any;
    if (!any && $("stop-confirm").open) $("stop-confirm").close();
  }
  $("stop-no").onclick = function () { $("stop-confirm").close(); };

  // -- the settings panel: core's SettingsMenu, as the chats' /rules offers it -------------------
  // Every button is an entry of core's menu, pressed by its id (the same press ids the chats'
  // buttons carry); what a press means, and whether this person may, is the server's (core's).
  var settingsAsked = false;
  window.__settings = [];  // every panel drawn, for tests
  function pressButton(e, cls) {
    var b = el("button", cls || "setting", e.label);
    b.type = "button";
    b.setAttribute("data-press", e.id);
    b.setAttribute("aria-pressed", e.on ? "true" : "false");
    if (e.hint) b.title = e.hint;
    b.onclick = function () { send({ type: "press", id: e.id }); };
    return b;
  }
  function drawSettings(m) {
    window.__settings.push(m);
    $("settings-title").textContent = m.title;
    var summary = $("settings-summary"); summary.textContent = "";
    (m.summary || []).forEach(function (line) { summary.appendChild(el("li", "", line)); });
    var body = $("settings-body");
    // The keyboard's focus stays where it was (a switch's id turns from on: to off:, its place stays).
    var focused = Array.prototype.indexOf.call(body.querySelectorAll("button, input"), document.activeElement);
    body.textContent = "";
    if (!m.admin) return;
    m.groups.forEach(function (g) {
      var box = el("fieldset", "group g-" + g.key);
      box.appendChild(el("legend", "", g.title));
      g.entries.forEach(function (e) { box.appendChild(pressButton(e)); });
      body.appendChild(box);
    });
    if (m.options.length) {
      var opts = el("fieldset", "group g-options");
      opts.appendChild(el("legend", "", m.options_title));
      m.options.forEach(function (o) {
        var div = el("div", "option");
        div.setAttribute("data-option", o.id);
        div.appendChild(el("h3", "", o.title));
        if (o.help) div.appendChild(el("p", "help", o.help));
        div.appendChild(el("p", "now", o.now));
        var row = el("div", "choices");
        o.choices.concat(o.steps).forEach(function (e) { row.appendChild(pressButton(e)); });
        div.appendChild(row);
        if (o.typed) {
          var form = el("form", "typed");
          var input = el("input"); input.type = "number"; input.inputMode = "numeric";
          input.setAttribute("aria-label", m.type_number + " · " + o.title); input.placeholder = m.type_number;
          var go = el("button", "setting", "✓"); go.type = "submit"; go.setAttribute("aria-label", m.type_number);
          form.appendChild(input); form.appendChild(go);
          form.onsubmit = function (ev) {
            ev.preventDefault();
            if (input.value !== "") send({ type: "press", id: o.typed, typed: input.value });
          };
          div.appendChild(form);
        }
        opts.appendChild(div);
      });
      body.appendChild(opts);
    }
    body.appendChild(pressButton(m.reset, "setting reset"));
    if (focused >= 0) {
      var all = body.querySelectorAll("button, input");
      var again = all[Math.min(focused, all.length - 1)];
      if (again) again.focus({ preventScroll: true });
    }
  }
  // The turn clock: the table's "15 seconds per turn", and the seconds the server said the
  // player on turn has left, counted down from when they came (the server's wake skips the
  // turn; the page only shows how long is left).
  var clockTick = null;
  function drawClock(s) {
    var box = $("clock");
    if (clockTick) { clearInterval(clockTick); clockTick = null; }
    box.hidden = !s.timer_text;
    box.classList.remove("low");
    if (!s.timer_text) { box.textContent = ""; return; }
    if (s.turn_left === null || s.turn_left === undefined) { box.textContent = "⏱ " + s.timer_text; return; }
    var end = performance.now() + s.turn_left * 1000;
    var tick = function () {
      var left = Math.max(0, Math.ceil((end - performance.now()) / 1000));
      box.textContent = "⏱ " + left + " · " + s.timer_text;
      box.classList.toggle("low", left <= 5);
      if (!left && clockTick) { clearInterval(clockTick); clockTick = null; }
    };
    tick();
    clockTick = setInterval(tick, 250);
  }
  // A rule's round clock (blitz): the minutes:seconds the server said the round has left,
  // counted down from when they came, in the label core gives ("⏱ Round ends in {time}").
  // role="timer" in the page: read when asked, never announced every second. The
  // round ends by the server's wake, not the page's.
  var roundTick = null;
  function drawRoundClock(s) {
    var box = $("round-clock");
    if (roundTick) { clearInterval(roundTick); roundTick = null; }
    box.classList.remove("low");
    var running = !(s.round_left === null || s.round_left === undefined) && !!s.round_label;
    // Before the deal, the lobby's "⏱ Each round lasts 3 minutes": who joins knows rounds are timed.
    box.hidden = !running && !s.round_length;
    if (!running) { box.textContent = s.round_length || ""; return; }
    var end = performance.now() + s.round_left * 1000;
    var tick = function () {
      var left = Math.max(0, Math.ceil((end - performance.now()) / 1000));
      var sec = left % 60;
      box.textContent = s.round_label.replace("{time}", Math.floor(left / 60) + ":" + (sec < 10 ? "0" : "") + sec);
      box.classList.toggle("low", left <= 30);
      if (!left && roundTick) { clearInterval(roundTick); roundTick = null; }
    };
    tick();
    roundTick = setInterval(tick, 500);
  }
  // The hand's and the menu's buttons are made anew for each state: the one that had the
  // keyboard's focus gets it back (the same card or action, else the one now in its place),
  // or every move, anyone's, would send a keyboard player back to the top of the page.
  function focusKey() {
    var a = document.activeElement;
    var box = a && a.parentNode;
    if (!box || (box.id !== "hand" && box.id !== "actions")) return null;
    var attr = box.id === "hand" ? "data-code" : "data-id";
    return { box: box.id, attr: attr, value: a.getAttribute(attr), index: Array.prototype.indexOf.call(box.children, a) };
  }
  function refocus(k) {
    if (!k) return;
    var box = $(k.box);
    var b = box.querySelector("[" + k.attr + '="' + CSS.escape(k.value || "") + '"]')
      || box.children[Math.min(k.index, box.children.length - 1)];
    if (b) b.focus({ preventScroll: true });
  }
  // The hand is one stop of the Tab key (a no-mercy hand of thirty cards was thirty stops
  // before the records below it); inside it the arrow keys go from card to card (in the
  // reading direction: mirrored right to left), Home and End to the first and the last.
  // The card that has the focus, or had it last, is the one Tab comes back to.
  function rove(card) {
    if (!card) return;
    $("hand").querySelectorAll(".card").forEach(function (b) { b.tabIndex = b === card ? 0 : -1; });
  }
  $("hand").addEventListener("focusin", function (ev) {
    if (ev.target.classList && ev.target.classList.contains("card")) rove(ev.target);
  });
  $("hand").addEventListener("keydown", function (ev) {
    var cards = Array.prototype.slice.call($("hand").querySelectorAll(".card"));
    var at = cards.indexOf(document.activeElement);
    if (at < 0 || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var back = document.documentElement.dir === "rtl" ? "ArrowRight" : "ArrowLeft";
    var on = document.documentElement.dir === "rtl" ? "ArrowLeft" : "ArrowRight";
    var to = ev.key === on || ev.key === "ArrowDown" ? at + 1 : ev.key === back || ev.key === "ArrowUp" ? at - 1
      : ev.key === "Home" ? 0 : ev.key === "End" ? cards.length - 1 : null;
    if (to === null) return;
    ev.preventDefault();
    var card = cards[Math.max(0, Math.min(cards.length - 1, to))];
    rove(card); card.focus();
  });
  // More kinds of card in the hand than this: drawn smaller, in as many columns as fit (style.css).
  var MANY_CARDS = 12;
  function actionButton(a) {
    var b = el("button", "action k-" + a.kind, a.label);
    b.type = "button";
    b.setAttribute("data-id", a.id); b.setAttribute("data-kind", a.kind);
    if (a.hint) { b.title = a.hint; b.setAttribute("aria-description", a.hint); }
    // Its key (d, p, u: the keydown handler below), told to assistive technology (the title
    // stays core's hint, word for word).
    if (KEYS[a.kind]) b.setAttribute("aria-keyshortcuts", KEYS[a.kind]);
    b.onclick = function () { choose(a); };
    return b;
  }
  var KEYS = { draw: "d", pass: "p", uno: "u" };
  function choose(a) {
    if (a.needs && a.needs.length && a.choices && a.choices.length) { pick(a); return; }
    send({ type: "act", id: a.id, version: state.version });
  }
  function pick(a) {
    var d = $("picker");
    var need = a.needs[0];
    $("picker-title").textContent = a.label + " · " + (need === "color" ? t("pick_colour") : need === "target" ? t("pick_target") : t("pick_level"));
    var box = $("choices"); box.textContent = "";
    a.choices.forEach(function (ch) {
      var b = el("button", "choice" + (ch.color ? " c-" + ch.color : ""), ch.label);
      b.type = "button"; b.setAttribute("data-id", ch.id);
      b.onclick = function () { d.close(); tapFrom = a.id; send({ type: "act", id: ch.id, version: state.version }); };
      box.appendChild(b);
    });
    d.dataset.version = String(state.version);
    d.showModal();
    var first = box.querySelector("button"); if (first) first.focus();
  }
  $("picker-cancel").onclick = function () { $("picker").close(); };
  $("copy").onclick = function () {
    var input = $("share-link");
    input.select();
    // navigator.clipboard is there only in a secure context (https, localhost): on a LAN's
    // http address (web.public_url http://<this machine>:8080) Copy did nothing; there the
    // selected link is copied the old way.
    if (navigator.clipboard && window.isSecureContext) { navigator.clipboard.writeText(input.value); return; }
    try { document.execCommand("copy"); } catch (e) { /* it stays selected: copied by hand */ }
  };
  $("name-form").onsubmit = function (ev) {
    ev.preventDefault();
    send({ type: "name", name: $("name").value });
  };
  document.addEventListener("keydown", function (ev) {
    // d: draw, p: pass, u: UNO (the menu's own actions; nothing if not offered)
    if (ev.target && (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") || $("picker").open
        || $("confirm").open || $("stop-confirm").open) return;
    // Ctrl+D (bookmark), Ctrl+P (print), Ctrl+U and their like are the browser's, not a move;
    // a key held down repeats, and a move is one press.
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.repeat) return;
    var kind = null;
    for (var k in KEYS) if (KEYS[k] === ev.key) kind = k;
    if (!kind || !state) return;
    var b = document.querySelector('#actions button[data-kind="' + kind + '"]');
    if (b) { ev.preventDefault(); b.click(); }
  });

  // -- the records panel: the chats' /top, /me, /last, /forgetme ---------------------------------
  // Core's answer (core/chat/answers.py) as lines, the first a title; one line alone is a note
  // (a refusal, a confirmation). The page computes nothing: it shows the lines it is sent.
  var period = "all";
  window.__records = [];  // every answer shown, for tests
  function records(what, extra) {
    var body = { what: what, period: period, auth: auth, lang: lang };
    if (extra) for (var k in extra) body[k] = extra[k];
    return fetch("api/records", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) })
      .then(function (r) { return r.json(); })
      .then(function (r) {
        if (r.confirm) { askForget(r.confirm); return; }
        if (!r.error) pressed(what);
        showRecords(r.error ? [r.error] : r.lines || [], r);
      })
      .catch(function () { showRecords([t("offline")], {}); });
  }
  function pressed(what) {  // the answer shown is this button's; the periods go with the standings
    document.querySelectorAll("#records-menu button").forEach(function (b) {
      b.setAttribute("aria-pressed", b.getAttribute("data-what") === what ? "true" : "false");
    });
    $("periods").hidden = what !== "top";
  }
  function showRecords(lines, answer) {
    var out = $("records-out"); out.textContent = "";
    if (lines.length === 1) {
      var note = el("p", "note", lines[0]);
      if (answer.error) note.setAttribute("role", "alert");
      out.appendChild(note);
    } else if (lines.length) {
      out.appendChild(el("h3", "", lines[0]));
      var ul = el("ul");
      lines.slice(1).forEach(function (line) { ul.appendChild(el("li", "", line)); });
      out.appendChild(ul);
    }
    window.__records.push({ what: answer.what || null, code: answer.code || null, lines: lines });
  }
  function askForget(question) {
    $("confirm-text").textContent = question;
    $("confirm").showModal();
    $("confirm-no").focus();
  }
  document.querySelectorAll("#records-menu button").forEach(function (b) {
    b.onclick = function () { records(b.getAttribute("data-what")); };
  });
  document.querySelectorAll("#periods button").forEach(function (b) {
    b.onclick = function () {
      period = b.getAttribute("data-period");
      document.querySelectorAll("#periods button").forEach(function (x) {
        x.setAttribute("aria-pressed", x === b ? "true" : "false");
      });
      records("top");
    };
  });
  $("confirm-yes").onclick = function () { $("confirm").close(); records("forgetme", { confirm: true }); };
  $("confirm-no").onclick = function () { $("confirm").close(); };

  // -- a new browser table ----------------------------------------------------------------------
  function landing() {
    show("landing");
    fetch("api/variants?lang=" + lang).then(function (r) { return r.json(); }).then(function (v) {
      if (v.lang) lang = v.lang;
      if (v.dir) setDir(v.dir);
      if (v.texts) { texts = v.texts; applyTexts(); }
      if (v.closed) { $("message").textContent = v.closed; show("message"); return; }  // web.browser_tables: false
      var sel = $("new-variant");
      v.variants.forEach(function (x) {
        var o = el("option", "", x.title); o.value = x.name; if (x.name === v.default) o.selected = true; sel.appendChild(o);
      });
    });
    $("new-form").onsubmit = function (ev) {
      ev.preventDefault();
      fetch("api/new", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: $("new-name").value, variant: $("new-variant").value, lang: lang }) })
        .then(function (r) { return r.json(); }).then(function (r) {
          if (r.error) { toast(r.error); return; }
          localStorage.setItem("unobot.seat." + r.table, r.player);
          location.href = here("?t=" + r.table);
        });
    };
  }

  auth = startAuth();
  if (auth) connect(); else landing();
})();

// The table's small client side: hotkeys, auto actions, the error toast, copying the code.
// Everything else arrives from the server as HTML over the room socket.
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalogue, /jsi18n/<lang>/); as written without it.
  const gettext = window.gettext || ((s) => s);
  // Per-game scripts (static/js/tables/<kind>.js) register here: {init(root, send)}.
  window.cubicTables = window.cubicTables || {};

  // Send any message over the room socket: {"type": "act", "action": ..., "seq": ...}.
  function send(message) {
    const sender = document.getElementById("ws-sender");
    if (!sender) return;
    sender.setAttribute("hx-vals", JSON.stringify(message));
    sender.click();
  }
  function act(action) {
    const main = document.getElementById("room-main");
    send({ type: "act", action: action, seq: Number(main ? main.dataset.seq : -1) });
  }
  window.cubic = { send: send, act: act, hint: () => send({ type: "hint" }) };

  function initTable() {
    const main = document.getElementById("room-main");
    const game = main && window.cubicTables[main.dataset.kind];
    if (game && game.init) game.init(main, window.cubic);
  }
  const AUTO_KEY = "cubic:auto:";
  // An auto action (Auto-flip) keeps the table's Speed Play pace.
  const AUTO_DELAY = { normal: 450, fast: 150, instant: 40 };
  // Nor faster than this (ms) between two sends: the socket takes 8 messages a second, and at
  // the instant pace a table moves quicker than that (its refusals would clear the memory
  // below, and each resend would be refused again).
  const AUTO_GAP = 200;
  let autoNext = 0; // the time the next auto send may go
  // auto action -> the decision it was sent for: the button's data-auto-key (War: the round
  // and stage) or else the state's seq. One send per decision, so none arrives after the round
  // or the game ended; an error (the send was dropped) allows it again.
  const autoSentFor = {};

  function autoAct() {
    document.querySelectorAll("[data-auto-action]").forEach((box) => {
      const key = AUTO_KEY + box.dataset.autoAction;
      box.checked = localStorage.getItem(key) === "1";
      box.onchange = () => { localStorage.setItem(key, box.checked ? "1" : "0"); autoAct(); };
      if (!box.checked) return;
      const button = document.getElementById(box.dataset.autoAction);
      const main = document.getElementById("room-main");
      const at = main ? main.dataset.seq : "";
      const decision = button && (button.dataset.autoKey || at);
      if (button && !button.disabled && autoSentFor[key] !== decision) {
        autoSentFor[key] = decision;
        const pace = AUTO_DELAY[main && main.dataset.speed] || AUTO_DELAY.normal;
        const delay = Math.max(pace, autoNext - Date.now());
        autoNext = Date.now() + delay + AUTO_GAP;
        setTimeout(() => {
          // The button as it is now (a redraw replaces it), if the table is still at that state.
          const now = document.getElementById(box.dataset.autoAction);
          const seq = document.getElementById("room-main");
          if (now && !now.disabled && (now.dataset.autoKey || (seq && seq.dataset.seq)) === decision) now.click();
        }, delay);
      }
    });
  }

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.target.closest("input, select, textarea")) return;
    const press = event.key === " " || event.key === "Enter";
    // A card or spot drawn as role="button" works like a button: Enter or Space presses it.
    const pressable = event.target.closest("[role=button][tabindex]");
    if (pressable && press) {
      event.preventDefault();
      pressable.click();
      return;
    }
    // Enter and Space belong to a focused button; other keys still reach the hotkeys.
    if (event.target.closest("button, summary") && press) return;
    const button = document.querySelector(`[data-hotkey="${event.key === " " ? " " : event.key}"]`);
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  document.addEventListener("click", (event) => {
    const copy = event.target.closest("[data-copy]");
    if (copy && navigator.clipboard) {
      navigator.clipboard.writeText(copy.dataset.copy).then(() => { copy.textContent = gettext("Copied!"); });
    }
    const hint = event.target.closest("#table-hint");
    if (hint) hint.hidden = true;
    const sent = event.target.closest("[ws-send]");
    if (sent) sent.classList.add("sent");
  });

  // The error last shown (its data-shown stamp): it stays in the page after it fades, and
  // later updates must neither show it again nor clear the auto actions' memory again.
  let toastShown = "";

  function showToast() {
    const toast = document.getElementById("table-error");
    if (!toast || !toast.textContent.trim() || toast.dataset.shown === toastShown) return;
    toastShown = toast.dataset.shown;
    Object.keys(autoSentFor).forEach((key) => { delete autoSentFor[key]; });
    toast.hidden = false;
    clearTimeout(showToast.timer);
    showToast.timer = setTimeout(() => { toast.hidden = true; }, 4000);
  }

  // A hint lies over the top of the table, below its title bar (Rules and Quit stay in reach).
  function showHint() {
    const box = document.getElementById("table-hint");
    if (!box || !box.textContent.trim()) return;
    const bar = document.querySelector("#room-main .table-bar");
    box.style.top = bar ? `${bar.offsetTop + bar.offsetHeight}px` : "0";
    box.hidden = false;
  }

  // Every update redraws #room-main, which would drop the keyboard focus to the page (the next
  // Tab then lands in the footer). Remember the focused control and find it again in the new
  // table: the same element, or the control now in its place, or the table's first action.
  const FOCUSABLE = "button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex='-1'])";
  let focusWas = null;

  function focusables(main) {
    return [...main.querySelectorAll(FOCUSABLE)].filter((el) => !el.closest("[hidden]"));
  }

  function rememberFocus() {
    const main = document.getElementById("room-main");
    const el = document.activeElement;
    focusWas = null;
    if (!main || !el || !main.contains(el) || el === main) return;
    const d = el.dataset;
    focusWas = {
      selectors: [
        el.id && `#${CSS.escape(el.id)}`,
        d.card && `[data-card="${CSS.escape(d.card)}"]${d.pile ? `[data-pile="${CSS.escape(d.pile)}"]` : ""}`,
        d.card && `[data-card="${CSS.escape(d.card)}"][tabindex]`,
        d.spot && `[data-spot="${CSS.escape(d.spot)}"]`,
        d.pos && `[data-pos="${CSS.escape(d.pos)}"]`,
        d.dest && `[data-dest="${CSS.escape(d.dest)}"]`,
        d.act && `[data-act="${CSS.escape(d.act)}"]`,
        d.key && `[data-key="${CSS.escape(d.key)}"]`,
      ].filter(Boolean),
      tag: el.tagName,
      text: el.textContent.trim(),
      index: focusables(main).indexOf(el),
    };
  }

  function restoreFocus() {
    const main = document.getElementById("room-main");
    const was = focusWas;
    focusWas = null;
    if (!main || !was) return;
    const now = document.activeElement;
    if (now && now !== document.body && document.body.contains(now)) return; // a game script placed it
    const usable = focusables(main);
    const ok = (el) => el && usable.includes(el);
    const found = was.selectors.map((sel) => main.querySelector(sel)).filter(Boolean);
    const same = found.find(ok) || found[0];
    if (same && !ok(same)) {
      // Still there but disabled for now (War's Flip while others flip): the table keeps the
      // focus, so its hotkeys still work and Tab goes on from here.
      main.focus({ preventScroll: true });
      return;
    }
    let next = same;
    next = next || usable.find((el) => el.tagName === was.tag && el.textContent.trim() === was.text);
    next = next || main.querySelector("[data-autofocus]");
    next = next || main.querySelector(".controls button:not([disabled]), .controls [tabindex='0']");
    next = next || (was.index >= 0 && usable[Math.min(was.index, usable.length - 1)]);
    (next || main).focus({ preventScroll: true });
  }

  // One live region outside the redrawn table tells screen readers whose turn it is and what
  // just happened (a region inside #room-main is replaced, not changed, so it stays silent).
  function announce() {
    const main = document.getElementById("room-main");
    const region = document.getElementById("table-news");
    if (!main || !region) return;
    const news = [...main.querySelectorAll("[data-news]")].map((el) => el.textContent.replace(/\s+/g, " ").trim());
    const text = [main.dataset.turn, ...news].filter(Boolean).join(". ");
    if (text && text !== region.dataset.said) {
      region.dataset.said = text;
      region.textContent = text;
    }
  }

  // The end of a game comes into view once (on a phone it is below the table).
  let shownOver = null;
  function showGameOver() {
    const over = document.querySelector("#room-main[data-over='1'] .game-over");
    const main = document.getElementById("room-main");
    if (!over || shownOver === main.dataset.seq) return;
    shownOver = main.dataset.seq;
    over.scrollIntoView({ block: "nearest" });
  }

  // On a phone the table is taller than the screen and the buttons' bar ([data-controls])
  // sticks to its bottom edge, over whatever lies there: on each new turn of the player's, the
  // part they play from ([data-reach], their hand) is scrolled to sit just above the bar, so the
  // bar never lies over a card they need. A data-reach with a value asks for that once more
  // outside the player's turn, once for each value (Poker: the holds of a hand's draw, picked
  // while others draw).
  let reachedAt = null;
  function bringIntoReach() {
    const main = document.getElementById("room-main");
    const reach = main && main.querySelector("[data-reach]");
    if (!reach) return;
    const at = main.dataset.yourTurn ? `turn ${main.dataset.seq}` : reach.dataset.reach;
    if (!at || reachedAt === at) return;
    reachedAt = at;
    const bar = main.querySelector("[data-controls]");
    const room = window.innerHeight - (bar ? bar.getBoundingClientRect().height : 0);
    const r = reach.getBoundingClientRect();
    if (r.bottom > room) window.scrollBy({ top: Math.min(r.bottom - room, r.top), behavior: "instant" });
  }

  document.body.addEventListener("htmx:wsBeforeMessage", rememberFocus);
  document.body.addEventListener("htmx:wsAfterMessage", () => {
    const room = document.getElementById("room");
    if (room) room.dataset.live = "1"; // the socket's first view replaced the page's
    initTable();
    showToast(); // first: an error (a send dropped, "Slow down") lets the auto action send again
    autoAct();
    showHint();
    restoreFocus();
    announce();
    showGameOver();
    bringIntoReach();
  });
  document.body.addEventListener("htmx:wsClose", (event) => {
    document.body.classList.add("offline");
    // 4503: the tables are unavailable (Redis). The socket won't retry that by itself; the
    // page reloads into one that says so and comes back to the table when they are.
    if (event.detail.event && event.detail.event.code === 4503) setTimeout(() => location.reload(), 5000);
  });
  document.body.addEventListener("htmx:wsOpen", () => {
    document.body.classList.remove("offline");
    const room = document.getElementById("room");
    if (room) room.classList.remove("connecting");
  });
  // A button that asks first (no inline handlers: the content security policy refuses them).
  document.addEventListener("click", (event) => {
    const asking = event.target.closest("[data-confirm]");
    if (asking && !window.confirm(asking.dataset.confirm)) event.preventDefault();
  });
  // This script and the per-game scripts after it are deferred: they run in order, then the
  // page fires DOMContentLoaded, so the first table is set up once every game has registered.
  document.addEventListener("DOMContentLoaded", () => {
    initTable();
    autoAct();
    announce();
    bringIntoReach();
  });
})();

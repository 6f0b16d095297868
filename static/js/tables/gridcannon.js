// Gridcannon table: tap the drawn card then a grid position, royals onto their spots,
// Ploys (tap the Ace or Joker, then the stacks), Armour, and the setup replacement.
// The page's only game data is the server-rendered view ("gc-view") and the legal actions
// ("gc-legal"); this script only highlights what they allow and sends the chosen action.
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalogue, /jsi18n/<lang>/); as written without it.
  const gettext = window.gettext || ((s) => s);
  const interpolate = window.interpolate || ((f, o) => f.replace(/%\((\w+)\)s/g, (m, k) => String(o[k])));
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

  // Client-only choices, kept while the position (seq) stays the same.
  const mem = { seq: null, mode: null, from: null, pick: null };

  const label = (card) => (card.startsWith("JK") ? gettext("Joker") : card.slice(0, -1) + SUITS[card.slice(-1)]);

  function readData(section) {
    const read = (id, fallback) => {
      const el = section.querySelector("#" + id);
      try {
        return el ? JSON.parse(el.textContent) : fallback;
      } catch (e) {
        return fallback;
      }
    };
    const view = read("gc-view", {});
    const legal = read("gc-legal", []);
    return { view: view, legal: legal, types: new Set(legal.map((a) => a.type)) };
  }

  function defaultMode(data) {
    const v = data.view;
    return v.waiting_kind === "number" && (v.placements || []).length ? "place" : null;
  }

  function reset(data) {
    mem.mode = defaultMode(data);
    mem.from = null;
    mem.pick = null;
  }

  function send(section, action) {
    reset(section._gc);
    mem.mode = null;
    window.cubic.act(action);
  }

  const legalOf = (data, type) => data.legal.filter((a) => a.type === type);
  const posEl = (section, pos) => section.querySelector(`[data-pos="${pos}"]`);
  const spotEl = (section, spot) => section.querySelector(`[data-spot="${spot}"]`);

  function marker(el, text, kind) {
    if (!el) return;
    const m = document.createElement("span");
    m.className = "gc-marker" + (kind ? " " + kind : "");
    m.textContent = text;
    el.appendChild(m);
  }

  function killText(data, kills) {
    return "✸ kills " + kills.map((s) => label(data.view.spots[s].royal)).join(" ");
  }

  // ---- highlights and the prompt ------------------------------------------------------------

  function render(section) {
    const data = section._gc;
    const v = data.view;
    section
      .querySelectorAll(".gc-target, .gc-source, .gc-picked, .gc-doomed, .sel, .active, .usable, .kill")
      .forEach((el) => el.classList.remove("gc-target", "gc-source", "gc-picked", "gc-doomed", "sel", "active", "usable", "kill"));
    section.querySelectorAll(".gc-marker").forEach((m) => m.remove());
    if (section.dataset.play !== "1") return;

    let prompt = null;
    section.querySelectorAll("[data-ploy]").forEach((p) => {
      const usable = data.types.has(p.dataset.ploy);
      p.classList.toggle("usable", usable);
      p.classList.toggle("active", usable && mem.mode === p.dataset.ploy);
      p.setAttribute("aria-disabled", usable ? "false" : "true");
    });

    // A royal waiting for its spot, and Armour, need no mode.
    legalOf(data, "place_royal").forEach((a) => spotEl(section, a.spot).classList.add("gc-target"));
    legalOf(data, "armour").forEach((a) => {
      const el = spotEl(section, a.spot);
      el.classList.add("gc-target");
      const t = (v.armour_targets || []).find((x) => x.spot === a.spot);
      if (t) marker(el, t.fatal ? `→ ${t.health_after}` + gettext(", lost") : `→ ${t.health_after}`, t.fatal ? "bad" : "info");
    });

    if (v.stage === "replace" && data.types.has("replace")) {
      legalOf(data, "replace").forEach((a) => posEl(section, a.pos).classList.add("gc-source"));
      if (mem.pick) posEl(section, mem.pick).classList.add("gc-picked");
    }

    if (mem.mode === "place" && v.waiting) {
      const drawn = section.querySelector("[data-gc-drawn]");
      if (drawn) drawn.classList.add("sel");
      (v.placements || []).forEach((p) => {
        const el = posEl(section, p.pos);
        el.classList.add("gc-target");
        if (p.kills.length) {
          el.classList.add("kill");
          marker(el, killText(data, p.kills));
          p.kills.forEach((s) => spotEl(section, s).classList.add("gc-doomed"));
        }
      });
      const kills = (v.placements || []).some((p) => p.kills.length);
      prompt = interpolate(gettext("Tap a glowing grid card to place %(card)s."), { card: label(v.waiting) }, true) + (kills ? gettext(" ✸ marks a placement that kills.") : "");
    } else if (mem.mode === "extract") {
      legalOf(data, "extract").forEach((a) => posEl(section, a.pos).classList.add("gc-target"));
      prompt = gettext("Extraction: tap a stack to send it, whole, under the draw pile. The position becomes empty and takes any card.");
    } else if (mem.mode === "reassign") {
      const moves = v.reassigns || [];
      if (!mem.from) {
        new Set(moves.map((r) => r.from)).forEach((f) => posEl(section, f).classList.add("gc-source"));
        prompt = gettext("Reassignment: tap the grid card to move.");
      } else {
        posEl(section, mem.from).classList.add("gc-source", "gc-picked");
        moves
          .filter((r) => r.from === mem.from)
          .forEach((r) => {
            const el = posEl(section, r.to);
            el.classList.add("gc-target");
            if (r.kills.length) {
              el.classList.add("kill");
              marker(el, killText(data, r.kills));
              r.kills.forEach((s) => spotEl(section, s).classList.add("gc-doomed"));
            } else if (r.makes_placeable) {
              marker(el, "makes room", "info");
            }
          });
        const top = v.grid[mem.from].top;
        prompt = interpolate(gettext("Reassignment: tap where %(card)s goes (a card of the same or lower value, or an empty place)."), { card: label(top) }, true);
      }
    }
    pressable(section);
    const promptEl = section.querySelector("[data-gc-prompt]");
    if (promptEl) {
      if (!promptEl.dataset.original) promptEl.dataset.original = promptEl.textContent.trim();
      promptEl.textContent = prompt || promptEl.dataset.original;
    }
    const cancel = section.querySelector("[data-gc-cancel]");
    if (cancel) cancel.hidden = !(mem.mode === "extract" || mem.mode === "reassign" || mem.pick);
    const replace = section.querySelector("[data-gc-replace]");
    if (replace) {
      replace.hidden = !mem.pick;
      if (mem.pick) replace.textContent = interpolate(gettext("Replace %(card)s"), { card: label(v.grid[mem.pick].top) }, true);
    }
  }

  // Every spot or grid card that a tap would act on now is a button for the keyboard too
  // (Tab to it, Enter or Space presses it: table.js), named with its place and card.
  function pressable(section) {
    section.querySelectorAll("[data-pos], [data-spot]").forEach((el) => {
      const live = el.classList.contains("gc-target") || el.classList.contains("gc-source");
      if (!live) {
        el.removeAttribute("tabindex");
        el.removeAttribute("role");
        el.removeAttribute("aria-label");
        return;
      }
      const img = el.querySelector("img.card");
      const what = img ? img.alt : gettext("empty");
      const where = el.dataset.pos ? gettext("Grid position") : gettext("Royal spot");
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", `${where}: ${what}${el.classList.contains("kill") ? gettext(", kills") : ""}`);
    });
  }

  // ---- taps -------------------------------------------------------------------------------

  function onClick(section, event) {
    if (section.dataset.play !== "1") return;
    const data = section._gc;
    const v = data.view;
    const t = event.target;
    const button = t.closest("[data-gc-act]");
    if (button) {
      if (button.disabled) return;
      if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
      return send(section, JSON.parse(button.dataset.gcAct));
    }
    if (t.closest("[data-gc-replace]")) {
      if (mem.pick) send(section, { type: "replace", pos: mem.pick });
      return;
    }
    if (t.closest("[data-gc-cancel]")) {
      reset(data);
      return render(section);
    }
    if (t.closest("[data-gc-drawn]")) {
      // The drawn card starts out picked up; tapping it picks it up again (leaving a Ploy).
      mem.mode = defaultMode(data);
      mem.from = null;
      return render(section);
    }
    const ploy = t.closest("[data-ploy]");
    if (ploy) {
      if (!data.types.has(ploy.dataset.ploy)) return;
      mem.mode = mem.mode === ploy.dataset.ploy ? defaultMode(data) : ploy.dataset.ploy;
      mem.from = null;
      mem.pick = null;
      return render(section);
    }
    const spot = t.closest("[data-spot]");
    if (spot) {
      const name = spot.dataset.spot;
      for (const type of ["place_royal", "armour"]) {
        if (legalOf(data, type).some((a) => a.spot === name)) return send(section, { type: type, spot: name });
      }
      return;
    }
    const cell = t.closest("[data-pos]");
    if (!cell) return;
    const pos = cell.dataset.pos;
    if (mem.mode === "extract") {
      if (legalOf(data, "extract").some((a) => a.pos === pos)) send(section, { type: "extract", pos: pos });
      return;
    }
    if (mem.mode === "reassign") {
      const moves = v.reassigns || [];
      if (mem.from && moves.some((r) => r.from === mem.from && r.to === pos)) {
        return send(section, { type: "reassign", from: mem.from, to: pos });
      }
      mem.from = mem.from === pos ? null : moves.some((r) => r.from === pos) ? pos : mem.from;
      return render(section);
    }
    if (v.stage === "replace" && data.types.has("replace")) {
      mem.pick = mem.pick === pos ? null : pos;
      return render(section);
    }
    if (mem.mode === "place" && legalOf(data, "place").some((a) => a.pos === pos)) {
      return send(section, { type: "place", pos: pos });
    }
  }

  function onKey(section, event) {
    if (event.key === "Escape" && (mem.mode === "extract" || mem.mode === "reassign" || mem.pick)) {
      reset(section._gc);
      render(section);
    }
  }

  // ---- wiring -------------------------------------------------------------------------------

  function init(root) {
    const section = root.querySelector("section.gc");
    if (!section) return;
    if (!section.dataset.gcReady) {
      section.dataset.gcReady = "1";
      section._gc = readData(section);
      if (mem.seq !== root.dataset.seq) {
        mem.seq = root.dataset.seq;
        reset(section._gc);
      }
      section.addEventListener("click", (e) => onClick(section, e));
      section.addEventListener("keydown", (e) => onKey(section, e));
    }
    render(section);
  }

  window.cubicTables = window.cubicTables || {};
  window.cubicTables.gridcannon = { init: init };
})();

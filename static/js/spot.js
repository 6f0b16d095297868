// A sponsor spot's countdown: the Collect button opens when the spot has run its full length.
// The server checks the time itself; this only saves a player a refused early claim.
document.querySelectorAll("[data-spot]").forEach((spot) => {
  // The page's language (Django's JavaScript catalogue, /jsi18n/<lang>/); as written without it.
  const gettext = window.gettext || ((s) => s);
  const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
  const interpolate = window.interpolate || ((f, o) => f.replace(/%\((\w+)\)s/g, (m, k) => String(o[k])));
  const seconds = Number(spot.dataset.seconds);
  const bar = spot.querySelector("[data-spot-bar]");
  const left = spot.querySelector("[data-spot-left]");
  const claim = spot.querySelector("[data-spot-claim]");
  const started = Date.now();
  const tick = () => {
    const gone = (Date.now() - started) / 1000;
    const rest = Math.max(0, Math.ceil(seconds - gone));
    bar.style.width = `${Math.min(100, (100 * gone) / seconds)}%`;
    if (rest > 0) {
      left.textContent = interpolate(
        ngettext("%(rest)s second to go.", "%(rest)s seconds to go.", rest),
        { rest: rest },
        true,
      );
      setTimeout(tick, 250);
    } else {
      left.textContent = gettext("Thank you for watching.");
      claim.disabled = false;
      claim.focus();
    }
  };
  tick();
});

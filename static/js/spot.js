// A sponsor spot's countdown: the Collect button opens when the spot has run its full length.
// The server checks the time itself; this only saves a player a refused early claim.
document.querySelectorAll("[data-spot]").forEach((spot) => {
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
      left.textContent = `${rest} second${rest === 1 ? "" : "s"} to go.`;
      setTimeout(tick, 250);
    } else {
      left.textContent = "Thank you for watching.";
      claim.disabled = false;
      claim.focus();
    }
  };
  tick();
});

// The bounty sheet is presented modally (over the list, the site header included): Escape closes
// it as its close control does. Without this file the close control still does.
document.addEventListener('keydown', function (e) {
  if (e.key !== 'Escape' || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  var close = document.querySelector('.bounty-sheet .close');
  if (close) { e.preventDefault(); close.click(); }
});

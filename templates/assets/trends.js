// The casting page's synopsis is folded to three lines with a 더보기/접기 <details> under it
// (trends.css), which works without this file. This file hides the control while the text fits in
// those three lines (it would unfold nothing), and checks again whenever the text's box changes
// size (a narrower or wider window, the fonts arriving). The control keeps its room, hidden, so
// nothing under it moves.
(function () {
  'use strict';
  document.querySelectorAll('.casting-overview').forEach(function (section) {
    var text = section.querySelector('.casting-overview-text');
    var toggle = section.querySelector('.casting-overview-toggle');
    if (!text || !toggle) return;
    function check() {
      if (toggle.open) return; // unfolded, the text is whole whatever its length: 접기 stays
      section.classList.toggle('overview-fits', text.scrollHeight <= text.clientHeight);
    }
    check();
    toggle.addEventListener('toggle', check);
    if (window.ResizeObserver) new ResizeObserver(check).observe(text);
    else addEventListener('resize', check);
    if (document.fonts) document.fonts.ready.then(check);
  });
})();

// Photo browser enhancements; every page works without this file.
(function () {
  'use strict';

  // The tab bar hides while the page scrolls down and returns when it scrolls up (or gets focus).
  var bar = document.querySelector('[data-tabbar]');
  if (bar) {
    var last = window.scrollY, queued = false;
    window.addEventListener('scroll', function () {
      if (queued) return;
      queued = true;
      requestAnimationFrame(function () {
        queued = false;
        var y = window.scrollY;
        if (Math.abs(y - last) < 4) return;
        bar.classList.toggle('tabbar-hidden', y > last && y > 48);
        last = y;
      });
    }, { passive: true });
    bar.addEventListener('focusin', function () { bar.classList.remove('tabbar-hidden'); });
  }

  // The pager: tap a photo to toggle the info bars; Escape, the close control or a pull down
  // goes back; the address follows the photo shown, so it can be shared.
  var pager = document.querySelector('[data-pager]');
  if (!pager) return;
  var list = pager.querySelector('.pager');
  var close = pager.querySelector('[data-pager-close]');
  function leave() {
    var fromHere = false;
    try { fromHere = document.referrer && new URL(document.referrer).origin === location.origin; } catch (e) { }
    if (fromHere && history.length > 1) history.back(); else location.href = close.href;
  }
  pager.addEventListener('click', function (e) {
    if (e.target.closest('[data-toggle-info]')) pager.classList.toggle('info-off');
  });
  close.addEventListener('click', function (e) { e.preventDefault(); leave(); });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') { e.preventDefault(); leave(); }
  });
  var timer = 0;
  list.addEventListener('scroll', function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var slide = list.children[Math.round(list.scrollLeft / list.clientWidth)];
      if (slide && location.hash !== '#' + slide.id) history.replaceState(null, '', '#' + slide.id);
    }, 150);
  }, { passive: true });
  var startX = 0, startY = 0;
  list.addEventListener('touchstart', function (e) { startX = e.touches[0].clientX; startY = e.touches[0].clientY; }, { passive: true });
  list.addEventListener('touchend', function (e) {
    var t = e.changedTouches[0];
    if (t.clientY - startY > 120 && Math.abs(t.clientX - startX) < 60) leave();
  }, { passive: true });
  // Arrow keys page at once: the list takes focus (after the fragment has been scrolled to).
  function focusList() { if (document.activeElement === document.body) list.focus({ preventScroll: true }); }
  focusList();
  window.addEventListener('load', focusList);
})();

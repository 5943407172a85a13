// Photo browser enhancements; every page works without this file.
(function () {
  'use strict';
  var reduceMotion = matchMedia('(prefers-reduced-motion: reduce)');

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

  // The pager: the photo or the info button toggles the info bars; Escape, the close control or a
  // pull down goes back; the arrow keys page; the address follows the photo shown, so it can be
  // shared. Only the photo shown takes part in Tab order: the others are inert.
  var pager = document.querySelector('[data-pager]');
  if (!pager) return;
  var list = pager.querySelector('.pager');
  var slides = list.children;
  var close = pager.querySelector('[data-pager-close]');
  var toggle = pager.querySelector('[data-info-toggle]');
  function leave() {
    var fromHere = false;
    try { fromHere = document.referrer && new URL(document.referrer).origin === location.origin; } catch (e) { }
    if (fromHere && history.length > 1) history.back(); else location.href = close.href;
  }
  close.addEventListener('click', function (e) { e.preventDefault(); leave(); });

  function setInfo(on) {
    pager.classList.toggle('info-off', !on);
    toggle.setAttribute('aria-pressed', String(on));
  }
  function flipInfo() { setInfo(pager.classList.contains('info-off')); }
  toggle.hidden = false;
  toggle.addEventListener('click', flipInfo);

  // The slide shown: from the address at first (the fragment may not be scrolled to yet), then
  // from the scroll position once a scroll ends.
  var shown = -1, heading = -1;
  function indexOf(id) {
    for (var i = 0; i < slides.length; i++) if (slides[i].id === id) return i;
    return -1;
  }
  function scrolledTo() {
    var i = Math.round(list.scrollLeft / Math.max(1, list.clientWidth));
    return Math.max(0, Math.min(slides.length - 1, i));
  }
  function show(i) {
    heading = -1;
    if (i === shown) return;
    var hadFocus = shown >= 0 && slides[shown].contains(document.activeElement);
    shown = i;
    for (var k = 0; k < slides.length; k++) slides[k].inert = k !== i;
    if (hadFocus) list.focus({ preventScroll: true });
    if (location.hash !== '#' + slides[i].id) history.replaceState(null, '', '#' + slides[i].id);
  }
  function addressed() {
    try { return indexOf(decodeURIComponent(location.hash.slice(1))); } catch (e) { return -1; } // a bad %-escape
  }
  show(Math.max(0, addressed()));
  var timer = 0;
  function settled() { clearTimeout(timer); show(scrolledTo()); }
  list.addEventListener('scroll', function () {
    clearTimeout(timer);
    timer = setTimeout(settled, 150);
  }, { passive: true });
  list.addEventListener('scrollend', settled);

  // Keys work wherever the focus is, without focusing the list for the reader (which would draw
  // a focus frame after a tap or a click).
  document.addEventListener('keydown', function (e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.key === 'Escape') { e.preventDefault(); leave(); return; }
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    var from = heading >= 0 ? heading : shown;
    var to = from + (e.key === 'ArrowRight' ? 1 : -1);
    e.preventDefault();
    if (to < 0 || to >= slides.length) return;
    heading = to;
    list.scrollTo({ left: to * list.clientWidth, behavior: reduceMotion.matches ? 'instant' : 'smooth' });
  });

  // Pull down to dismiss: the photo follows the pointer (touch or mouse) and the black fades;
  // released past a threshold or flicked down it goes, else it springs back.
  var drag = null, dragged = false;
  var SLOP = 8, FLICK = 0.5; // px before a drag starts; px/ms downwards that dismisses on release
  function threshold() { return Math.max(96, pager.clientHeight * 0.18); }
  function place(d) {
    var k = Math.min(1, d.dy / (pager.clientHeight * 0.6));
    d.photo.style.transform = 'translate(' + d.dx + 'px, ' + d.dy + 'px) scale(' + (1 - 0.3 * k) + ')';
    pager.style.setProperty('--backdrop', String(1 - 0.75 * k));
  }
  function speed(d) {
    var recent = d.samples.filter(function (s) { return s.t >= d.samples[d.samples.length - 1].t - 100; });
    var a = recent[0], b = recent[recent.length - 1];
    return b.t > a.t ? (b.y - a.y) / (b.t - a.t) : 0;
  }
  function settle(d, gone) {
    var motion = !reduceMotion.matches;
    pager.classList.remove('pager-dragging');
    if (gone) {
      if (!motion) { leave(); return; }
      d.photo.style.transition = 'transform .2s ease-in, opacity .2s ease-in';
      d.photo.style.transform = 'translate(' + d.dx + 'px, ' + (pager.clientHeight) + 'px) scale(.6)';
      d.photo.style.opacity = '0';
      pager.style.setProperty('--backdrop', '0');
      setTimeout(leave, 200);
      return;
    }
    d.photo.style.transition = motion ? 'transform .45s linear(0, .45 12%, .86 28%, 1.04 45%, 1.02 62%, 1)' : '';
    d.photo.style.transform = '';
    pager.style.removeProperty('--backdrop');
    if (motion) {
      d.photo.addEventListener('transitionend', function done() {
        d.photo.style.transition = '';
        d.photo.removeEventListener('transitionend', done);
      });
    }
  }
  list.addEventListener('pointerdown', function (e) {
    dragged = false;
    if (!e.isPrimary || (e.pointerType === 'mouse' && e.button !== 0) || e.target.closest('a, button')) return;
    if (e.pointerType === 'mouse') e.preventDefault(); // no text selection or image drag
    drag = { id: e.pointerId, x: e.clientX, y: e.clientY, dx: 0, dy: 0, on: false,
             samples: [{ t: e.timeStamp, y: e.clientY }] };
  });
  list.addEventListener('pointermove', function (e) {
    var d = drag;
    if (!d || e.pointerId !== d.id) return;
    var dx = e.clientX - d.x, dy = e.clientY - d.y;
    if (!d.on) {
      if (Math.abs(dx) < SLOP && Math.abs(dy) < SLOP) return;
      if (dy <= 0 || Math.abs(dx) > dy) { drag = null; return; } // sideways or up: the scroller's
      d.photo = slides[shown].querySelector('.slide-photo');
      if (!d.photo) { drag = null; return; }
      d.on = true;
      d.photo.style.transition = '';
      try { list.setPointerCapture(e.pointerId); } catch (err) { }
      pager.classList.add('pager-dragging');
    }
    d.dx = dx;
    d.dy = Math.max(0, dy);
    d.samples.push({ t: e.timeStamp, y: e.clientY });
    if (d.samples.length > 32) d.samples.shift();
    place(d);
  });
  function release(e) {
    var d = drag;
    if (!d || e.pointerId !== d.id) return;
    drag = null;
    if (!d.on) return;
    dragged = true;
    if (e.type === 'pointercancel') { settle(d, false); return; }
    d.samples.push({ t: e.timeStamp, y: e.clientY });
    settle(d, d.dy > threshold() || (speed(d) > FLICK && d.dy > SLOP * 3));
  }
  list.addEventListener('pointerup', release);
  list.addEventListener('pointercancel', release);
  list.addEventListener('dragstart', function (e) { e.preventDefault(); });
  pager.addEventListener('click', function (e) {
    if (dragged) { dragged = false; return; } // the end of a drag is no tap
    if (e.target.closest('[data-toggle-info]')) flipInfo();
  });
})();

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
  // pull down goes back; the arrow keys, the previous/next buttons (shown for a mouse or a wide
  // screen), a mouse drag sideways and a vertical wheel turn page; the address follows the photo
  // shown, so it can be shared. Only the photo shown takes part in Tab order: the others are inert.
  var pager = document.querySelector('[data-pager]');
  if (!pager) return;
  var list = pager.querySelector('.pager');
  var slides = list.children;
  var close = pager.querySelector('[data-pager-close]');
  var toggle = pager.querySelector('[data-info-toggle]');
  var steps = pager.querySelectorAll('[data-pager-step]');
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
  // from the scroll position once a scroll ends. `heading` is the slide a paging scroll goes to.
  var shown = -1, heading = -1;
  function indexOf(id) {
    for (var i = 0; i < slides.length; i++) if (slides[i].id === id) return i;
    return -1;
  }
  function scrolledTo() {
    var i = Math.round(list.scrollLeft / Math.max(1, list.clientWidth));
    return Math.max(0, Math.min(slides.length - 1, i));
  }
  function current() { return heading >= 0 ? heading : shown; }
  // The previous/next buttons: none before the first photo nor after the last. A button that
  // goes away with the focus hands it to the other one (or to the list), not to the page.
  function updateSteps() {
    var at = current(), moved = null;
    for (var k = 0; k < steps.length; k++) {
      var b = steps[k], to = at + Number(b.getAttribute('data-pager-step'));
      var off = to < 0 || to >= slides.length;
      if (off && !b.hidden && b === document.activeElement) moved = b;
      b.hidden = off;
    }
    if (moved) {
      var other = moved === steps[0] ? steps[1] : steps[0];
      if (other && !other.hidden) other.focus(); else list.focus({ preventScroll: true });
    }
  }
  function show(i) {
    heading = -1;
    if (i !== shown) {
      var hadFocus = shown >= 0 && slides[shown].contains(document.activeElement);
      shown = i;
      for (var k = 0; k < slides.length; k++) slides[k].inert = k !== i;
      if (hadFocus) list.focus({ preventScroll: true });
      if (location.hash !== '#' + slides[i].id) history.replaceState(null, '', '#' + slides[i].id);
    }
    updateSteps();
  }
  function addressed() {
    try { return indexOf(decodeURIComponent(location.hash.slice(1))); } catch (e) { return -1; } // a bad %-escape
  }
  show(Math.max(0, addressed()));
  var drag = null, dragged = false;
  var timer = 0;
  function settled() {
    clearTimeout(timer);
    if (drag && drag.mode === 'page') return; // the mouse still holds the photos
    pager.classList.remove('pager-paging');
    show(scrolledTo());
  }
  list.addEventListener('scroll', function () {
    clearTimeout(timer);
    timer = setTimeout(settled, 150);
  }, { passive: true });
  // After a mouse drag the snap comes back once the photos have stopped: at the debounce's end,
  // as a late scrollend of the drag's own scrolls would end the paging scroll's snap-free run.
  list.addEventListener('scrollend', function () { if (!pager.classList.contains('pager-paging')) settled(); });

  // Pages to slide `to` (if there is one): smoothly, or at once with reduced motion.
  function go(to) {
    if (to < 0 || to >= slides.length) return;
    heading = to;
    updateSteps();
    var left = to * list.clientWidth;
    if (Math.abs(list.scrollLeft - left) < 1) { settled(); return; }
    list.scrollTo({ left: left, behavior: reduceMotion.matches ? 'instant' : 'smooth' });
  }
  function step(by) { go(current() + by); }
  for (var k = 0; k < steps.length; k++) {
    steps[k].addEventListener('click', function () { step(Number(this.getAttribute('data-pager-step'))); });
  }

  // Keys work wherever the focus is, without focusing the list for the reader (which would draw
  // a focus frame after a tap or a click).
  document.addEventListener('keydown', function (e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.key === 'Escape') { e.preventDefault(); leave(); return; }
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    step(e.key === 'ArrowRight' ? 1 : -1);
  });

  // A mouse wheel turned up or down pages once per turn (a trackpad's stream of wheel events is
  // one turn until it pauses); a sideways wheel or trackpad swipe is the scroller's own.
  var WHEEL_PAUSE = 200, wheelAt = -Infinity;
  list.addEventListener('wheel', function (e) {
    if (e.ctrlKey || e.shiftKey || Math.abs(e.deltaY) <= Math.abs(e.deltaX)) return;
    e.preventDefault();
    var fresh = e.timeStamp - wheelAt > WHEEL_PAUSE;
    wheelAt = e.timeStamp;
    if (fresh) step(e.deltaY > 0 ? 1 : -1);
  }, { passive: false });

  // Pull down to dismiss: the photo under the pointer (touch or mouse) follows it and the black
  // fades; released past a threshold or flicked down it goes, else it springs back. A mouse
  // dragged sideways pages (a finger's sideways swipe is the scroller's own): the photos follow
  // it, and released past a sixth of the width or flicked, the next or previous photo comes in.
  var SLOP = 8, FLICK = 0.5; // px before a drag starts; px/ms downwards that dismisses on release
  var PAGE_PART = 1 / 6, PAGE_FLICK = 0.3; // the share of the width, px/ms sideways that page
  function threshold() { return Math.max(96, pager.clientHeight * 0.18); }
  function place(d) {
    var k = Math.min(1, d.dy / (pager.clientHeight * 0.6));
    d.photo.style.transform = 'translate(' + d.dx + 'px, ' + d.dy + 'px) scale(' + (1 - 0.3 * k) + ')';
    pager.style.setProperty('--backdrop', String(1 - 0.75 * k));
  }
  function speed(d, axis) {
    var recent = d.samples.filter(function (s) { return s.t >= d.samples[d.samples.length - 1].t - 100; });
    var a = recent[0], b = recent[recent.length - 1];
    return b.t > a.t ? (b[axis] - a[axis]) / (b.t - a.t) : 0;
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
    drag = { id: e.pointerId, mouse: e.pointerType === 'mouse', slide: e.target.closest('.slide'),
             x: e.clientX, y: e.clientY, dx: 0, dy: 0, mode: null,
             samples: [{ t: e.timeStamp, x: e.clientX, y: e.clientY }] };
  });
  list.addEventListener('pointermove', function (e) {
    var d = drag;
    if (!d || e.pointerId !== d.id) return;
    var dx = e.clientX - d.x, dy = e.clientY - d.y;
    if (!d.mode) {
      if (Math.abs(dx) < SLOP && Math.abs(dy) < SLOP) return;
      if (dy > 0 && Math.abs(dx) <= dy) {
        // The photo the pointer went down on: the one shown may not be known yet (a scroll
        // that has not settled), and moving another, off screen, would show nothing.
        var on = d.slide && d.slide.parentNode === list ? d.slide : slides[shown];
        d.photo = on.querySelector('.slide-photo');
        if (!d.photo) { drag = null; return; }
        d.mode = 'pull';
        d.photo.style.transition = '';
        pager.classList.add('pager-dragging');
      } else if (d.mouse && Math.abs(dx) > Math.abs(dy)) {
        d.mode = 'page';
        d.left = list.scrollLeft;
        d.from = scrolledTo();
        pager.classList.add('pager-paging');
      } else { drag = null; return; } // up, or a finger sideways: the scroller's
      try { list.setPointerCapture(e.pointerId); } catch (err) { }
    }
    d.samples.push({ t: e.timeStamp, x: e.clientX, y: e.clientY });
    if (d.samples.length > 32) d.samples.shift();
    d.dx = dx;
    if (d.mode === 'page') { list.scrollLeft = d.left - dx; return; }
    d.dy = Math.max(0, dy);
    place(d);
  });
  function release(e) {
    var d = drag;
    if (!d || e.pointerId !== d.id) return;
    drag = null;
    if (!d.mode) return;
    dragged = true;
    d.samples.push({ t: e.timeStamp, x: e.clientX, y: e.clientY });
    if (d.mode === 'page') {
      if (e.type !== 'pointercancel') d.dx = e.clientX - d.x;
      var part = d.dx / Math.max(1, list.clientWidth), v = e.type === 'pointercancel' ? 0 : speed(d, 'x');
      var by = part < -PAGE_PART || v < -PAGE_FLICK ? 1 : part > PAGE_PART || v > PAGE_FLICK ? -1 : 0;
      go(Math.max(0, Math.min(slides.length - 1, d.from + by)));
      return;
    }
    if (e.type === 'pointercancel') { settle(d, false); return; }
    settle(d, d.dy > threshold() || (speed(d, 'y') > FLICK && d.dy > SLOP * 3));
  }
  list.addEventListener('pointerup', release);
  list.addEventListener('pointercancel', release);
  list.addEventListener('dragstart', function (e) { e.preventDefault(); });
  pager.addEventListener('click', function (e) {
    if (dragged) { dragged = false; return; } // the end of a drag is no tap
    if (e.target.closest('[data-toggle-info]')) flipInfo();
  });
})();

(function () {
  'use strict';
  // The report's only script. It reads the data block, never a string of the
  // page as code, and attaches every listener itself.
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const fv = document.getElementById('f-verdict');
  const fc = document.getElementById('f-cverdict');
  const fr = document.getElementById('f-reason');
  const fa = document.getElementById('f-arm');
  const shown = document.getElementById('shown');
  const selects = [fv, fc, fr, fa];

  // Attribute lists are space-separated percent-encoded codes.
  function has(list, code) {
    return (' ' + (list || '') + ' ').indexOf(' ' + code + ' ') >= 0;
  }

  function matches(el, v, c, r, a) {
    return (!v || el.getAttribute('data-v') === v) &&
      (!a || el.getAttribute('data-a') === a) &&
      (!c || has(el.getAttribute('data-cv'), c)) &&
      (!r || has(el.getAttribute('data-r'), r));
  }

  function apply() {
    const v = fv.value, c = fc.value, r = fr.value, a = fa.value;
    const citeReason = r.indexOf('citation:') === 0 ? r : '';
    let rows = 0;
    document.querySelectorAll('tr.res').forEach(function (tr) {
      const ok = matches(tr, v, c, r, a);
      tr.hidden = !ok;
      if (ok) rows++;
    });
    let cites = 0;
    document.querySelectorAll('details.question').forEach(function (q) {
      let any = false;
      q.querySelectorAll('article.attempt').forEach(function (card) {
        const ok = matches(card, v, c, r, a);
        card.hidden = !ok;
        if (!ok) return;
        any = true;
        card.querySelectorAll('details.cite').forEach(function (ci) {
          const cok = (!c || ci.getAttribute('data-v') === c) && (!citeReason || has(ci.getAttribute('data-r'), citeReason));
          ci.hidden = !cok;
          if (cok) cites++;
        });
      });
      q.hidden = !any;
    });
    shown.textContent = rows + ' of ' + data.results + ' results, ' + cites + ' of ' + data.citations + ' citations shown';
  }

  function hidden(el) {
    for (let p = el; p; p = p.parentElement) {
      if (p.hidden) return true;
    }
    return false;
  }

  // Scroll each text view of a citation to its first marked span.
  function scrollMarks(det) {
    det.querySelectorAll('pre.textview').forEach(function (pre) {
      const m = pre.querySelector('mark');
      if (!m) return;
      const top = m.getBoundingClientRect().top - pre.getBoundingClientRect().top + pre.scrollTop;
      pre.scrollTop = Math.max(0, top - 40);
    });
  }

  // Deep links: #Q07 opens the question, #Q07/A/2 an attempt, #Q07/A/2/c1
  // a citation; whatever is closed around the target is opened, and filters
  // that hide it are cleared.
  function openTarget() {
    const h = location.hash.slice(1);
    if (!h) return;
    let id = h;
    try {
      id = decodeURIComponent(h);
    } catch (e) {
      id = h;
    }
    const el = document.getElementById(id);
    if (!el) return;
    if (hidden(el)) {
      selects.forEach(function (s) { s.value = ''; });
      apply();
    }
    for (let p = el; p; p = p.parentElement) {
      if (p.tagName === 'DETAILS') p.open = true;
    }
    document.querySelectorAll('.target').forEach(function (t) { t.classList.remove('target'); });
    el.classList.add('target');
    el.scrollIntoView({ block: 'start' });
    if (el.classList.contains('cite')) scrollMarks(el);
  }

  selects.forEach(function (s) { s.addEventListener('change', apply); });
  document.getElementById('f-reset').addEventListener('click', function () {
    selects.forEach(function (s) { s.value = ''; });
    apply();
  });
  document.getElementById('open-all').addEventListener('click', function () {
    document.querySelectorAll('details.question').forEach(function (q) { if (!q.hidden) q.open = true; });
  });
  document.getElementById('close-all').addEventListener('click', function () {
    document.querySelectorAll('details.question').forEach(function (q) { q.open = false; });
  });
  // A link to the hash already shown fires no hashchange: open it anyway.
  document.addEventListener('click', function (e) {
    const a = e.target.closest ? e.target.closest('a[href^="#"]') : null;
    if (a && a.getAttribute('href') === location.hash) openTarget();
  });
  document.addEventListener('toggle', function (e) {
    const d = e.target;
    if (d.open && d.classList && d.classList.contains('cite')) scrollMarks(d);
  }, true);
  window.addEventListener('hashchange', openTarget);
  apply();
  openTarget();
  document.documentElement.setAttribute('data-ready', '1');
})();

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
  // The blinded review page has no filters.
  const selects = [fv, fc, fr, fa].filter(Boolean);

  function on(id, type, fn) {
    const el = document.getElementById(id);
    if (el) el.addEventListener(type, fn);
  }

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
    if (!fv) return;
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
  on('f-reset', 'click', function () {
    selects.forEach(function (s) { s.value = ''; });
    apply();
  });
  on('open-all', 'click', function () {
    document.querySelectorAll('details.question').forEach(function (q) { if (!q.hidden) q.open = true; });
  });
  on('close-all', 'click', function () {
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

  // The review mode: a verdict per item, a note, the reviewer's name, and
  // the decisions saved as JSON Lines through a Blob URL (nothing is sent).
  const items = Array.prototype.slice.call(document.querySelectorAll('article.rv-item'));
  const reviewer = document.getElementById('rv-reviewer');
  const count = document.getElementById('rv-count');
  const title = document.title;

  function decided() {
    return items.filter(function (it) { return it.getAttribute('data-verdict'); });
  }

  function tally(msg) {
    if (!count) return;
    count.textContent = (msg ? msg + ' ' : '') + decided().length + ' of ' + items.length + ' items decided';
  }

  items.forEach(function (it) {
    it.querySelectorAll('button.rv-v').forEach(function (b) {
      b.addEventListener('click', function () {
        const again = it.getAttribute('data-verdict') === b.getAttribute('data-v');
        it.querySelectorAll('button.rv-v').forEach(function (o) { o.setAttribute('aria-pressed', 'false'); });
        if (again) {
          it.removeAttribute('data-verdict');
        } else {
          it.setAttribute('data-verdict', b.getAttribute('data-v'));
          b.setAttribute('aria-pressed', 'true');
        }
        unsaved = true;
        tally('');
      });
    });
  });

  // Decisions live in this page until downloaded: leaving it with some
  // not yet saved asks first, since nothing is kept anywhere else.
  let unsaved = false;
  window.addEventListener('beforeunload', function (e) {
    if (unsaved && decided().length) e.preventDefault();
  });

  on('rv-blind', 'change', function (e) {
    document.body.classList.toggle('blind', e.target.checked);
    document.title = e.target.checked ? 'citecheck review' : title;
  });

  on('rv-download', 'click', function () {
    const name = reviewer.value.trim();
    if (!name) {
      tally('Give your name first.');
      reviewer.focus();
      return;
    }
    const at = new Date().toISOString();
    const lines = decided().map(function (it) {
      const d = { hash: it.getAttribute('data-hash'), verdict: it.getAttribute('data-verdict'), reviewer: name };
      const note = it.querySelector('input.rv-note').value.trim();
      if (note) d.note = note;
      d.at = at;
      return JSON.stringify(d) + '\n';
    });
    if (!lines.length) {
      tally('Nothing decided yet.');
      return;
    }
    const url = URL.createObjectURL(new Blob(lines, { type: 'application/x-ndjson' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'decisions.jsonl';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
    unsaved = false;
    tally('Saved ' + lines.length + ' decisions.');
  });
  tally('');

  apply();
  openTarget();
  document.documentElement.setAttribute('data-ready', '1');
})();

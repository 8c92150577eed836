// The imu dashboard: one WebSocket (/ws) carrying the daemon's JSON lines, drawn every animation
// frame. The attitude is interpolated between the 50 Hz motion lines, so the board turns smoothly
// at the screen's frame rate. No libraries; `window.imuDashboard` is the page's state, which the
// browser tests read.
'use strict';
(() => {
  const DISPLAY_LAG_S = 0.06;      // drawn this far behind the newest line: two samples to interpolate between at 50 Hz
  const HISTORY_S = 10;            // the graphs' span
  const MAX_EVENTS = 200;          // entries kept in the event and rule logs
  const DEG = 180 / Math.PI;

  const state = {
    hello: null, connected: false, motionLines: 0, lost: 0,
    motion: [],                    // {t, q:[w,x,y,z], acc:[x,y,z] g, rot:[x,y,z] °/s, euler:[roll,pitch,yaw] °, heading}
    offset: null,                  // smallest (arrival − t) seen: maps the engine's clock onto performance.now()
    shown: null,                   // {t, q} drawn in the last frame
    frames: 0, fps: 0,
    events: [],                    // {line, t, shownAtMs} (shownAtMs: Unix ms when it entered the log)
    calibration: null,
  };
  window.imuDashboard = state;
  const $ = (id) => document.getElementById(id);

  // ---- Connection ---------------------------------------------------------------------------
  let socket = null, retryMs = 500;
  function connect() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(`${scheme}//${location.host}/ws`);
    socket.onopen = () => {
      retryMs = 500;
      state.connected = true;
      setBadge(true);
      socket.send(JSON.stringify({ subscribe: ['motion', 'events', 'health', 'rules', 'calibration'], rate_hz: 50 }));
    };
    socket.onmessage = (m) => {
      let line;
      try { line = JSON.parse(m.data); } catch { return; }
      receive(line, performance.now() / 1000);
    };
    socket.onclose = () => {
      state.connected = false;
      setBadge(false);
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 10000);
    };
  }
  function setBadge(on) {
    const b = $('connection');
    b.textContent = on ? 'live' : 'offline';
    b.className = 'badge ' + (on ? 'on' : 'off');
  }

  // Lines are told apart by their keys, as a client of `--format jsonl` would: motion lines have
  // quat_w, events and the daemon's own lines a "type".
  function receive(line, arrival) {
    if (line.type === 'lost' && typeof line.count === 'number') { state.lost += line.count; return; }
    if ('quat_w' in line) return addMotion(line, arrival);
    // The event kinds are the hello's `event_types` (the daemon's one list).
    if (state.hello && (state.hello.event_types || []).includes(line.type)) return addEvent(line);
    switch (line.type) {
      case 'hello': return hello(line);
      case 'health': return health(line);
      case 'rule': return addRule(line);
      case 'gpio': return gpio(line.lines || []);
      case 'rules': return ruleList(line.rules || []);
      case 'calibration': return calibration(line);
      case 'error': return addLog($('events'), `error: ${line.error}`, null);
    }
    if (line.error) addLog($('events'), `error: ${line.error}`, null);
  }

  function hello(h) {
    state.hello = h;
    $('device').textContent = [h.chip, h.board && `on ${h.board}`, h.bus].filter(Boolean).join(' ') +
      (h.rate_hz ? ` · ${h.rate_hz} Hz` : '');
    const control = !!h.allow_control;
    for (const id of ['start-gyro', 'start-accel', 'start-mag']) $(id).disabled = !control;
    $('start-mag').disabled = !control || h.magnetometer === false;
    $('control-note').style.display = control ? 'none' : '';
    if (h.rules) ruleList(h.rules);
    if (h.gpio) gpio(h.gpio);
    if (h.calibration) showCalibration(h.calibration);
  }

  // ---- Motion -------------------------------------------------------------------------------
  function addMotion(l, arrival) {
    const m = {
      t: l.t,
      q: [l.quat_w, l.quat_x, l.quat_y, l.quat_z],
      acc: [l.gravity_x + l.user_acc_x, l.gravity_y + l.user_acc_y, l.gravity_z + l.user_acc_z],
      rot: [l.rot_x * DEG, l.rot_y * DEG, l.rot_z * DEG],
      euler: [l.roll_deg, l.pitch_deg, l.yaw_deg],
      heading: l.heading_deg,
    };
    const last = state.motion[state.motion.length - 1];
    if (last && m.t <= last.t) { state.motion.length = 0; state.offset = null; } // the daemon restarted
    state.motion.push(m);
    state.motionLines++;
    const o = arrival - m.t;
    // The smallest delay seen, drifting up slowly so a clock step does not pin it forever.
    state.offset = state.offset === null || o < state.offset ? o : state.offset + 0.0001;
    while (state.motion.length > 2 && state.motion[0].t < m.t - HISTORY_S - 1) state.motion.shift();
  }

  function slerp(a, b, f) {
    let [aw, ax, ay, az] = a, [bw, bx, by, bz] = b;
    let dot = aw * bw + ax * bx + ay * by + az * bz;
    if (dot < 0) { dot = -dot; bw = -bw; bx = -bx; by = -by; bz = -bz; }
    let ka = 1 - f, kb = f;
    if (dot < 0.9995) {
      const th = Math.acos(dot), s = Math.sin(th);
      ka = Math.sin((1 - f) * th) / s; kb = Math.sin(f * th) / s;
    }
    const q = [ka * aw + kb * bw, ka * ax + kb * bx, ka * ay + kb * by, ka * az + kb * bz];
    const n = Math.hypot(...q);
    return q.map((v) => v / n);
  }

  // The attitude at engine time t, between the two lines around it (the newest when t is past it).
  function attitudeAt(t) {
    const ms = state.motion;
    if (!ms.length) return null;
    let i = ms.length - 1;
    if (t >= ms[i].t) return { t: ms[i].t, q: ms[i].q };
    while (i > 0 && ms[i - 1].t > t) i--;
    if (i === 0) return { t: ms[0].t, q: ms[0].q };
    const a = ms[i - 1], b = ms[i];
    return { t, q: slerp(a.q, b.q, (t - a.t) / (b.t - a.t)) };
  }

  // CSS's axes: x right, y down, z toward the viewer. World (ENU, z up) is drawn with z up the
  // screen and north into it (#camera then looks from 40° above): css = M·world, M = [x, −z, −y].
  // The board's own layout has device x right, device y up the screen (−css y), device z toward
  // the viewer: D = diag(1, −1, 1). So the board's transform is M·R·D, R the attitude (device → world).
  function boardMatrix(q) {
    const [w, x, y, z] = q;
    const R = [
      [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
      [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
      [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ];
    const MR = [R[0], R[2].map((v) => -v), R[1].map((v) => -v)];
    const T = MR.map((row) => [row[0], -row[1], row[2]]);
    const f = (v) => (Math.abs(v) < 1e-9 ? 0 : v).toFixed(6);
    return `matrix3d(${f(T[0][0])},${f(T[1][0])},${f(T[2][0])},0,${f(T[0][1])},${f(T[1][1])},${f(T[2][1])},0,` +
      `${f(T[0][2])},${f(T[1][2])},${f(T[2][2])},0,0,0,0,1)`;
  }

  // ---- Frames -------------------------------------------------------------------------------
  let fpsWindowStart = performance.now(), fpsFrames = 0, lastGraph = 0, lastNumbers = 0;
  function frame(nowMs) {
    state.frames++;
    fpsFrames++;
    if (nowMs - fpsWindowStart >= 1000) {
      state.fps = fpsFrames * 1000 / (nowMs - fpsWindowStart);
      fpsFrames = 0; fpsWindowStart = nowMs;
      $('fps').textContent = `${state.fps.toFixed(0)} fps`;
      const ms = state.motion;
      if (ms.length > 10) {
        const span = ms[ms.length - 1].t - ms[ms.length - 11].t;
        $('rate').textContent = `${(10 / span).toFixed(0)} Hz`;
      }
    }
    if (state.offset !== null) {
      const t = nowMs / 1000 - state.offset - DISPLAY_LAG_S;
      const a = attitudeAt(t);
      if (a) {
        $('board').style.transform = boardMatrix(a.q);
        state.shown = a;
      }
      if (nowMs - lastNumbers >= 100) { lastNumbers = nowMs; numbers(); }
      if (nowMs - lastGraph >= 50) { lastGraph = nowMs; graphs(t); }
    }
    if (state.calibration && state.calibration.kind === 'mag') drawSphere(nowMs);
    requestAnimationFrame(frame);
  }

  function numbers() {
    const m = state.motion[state.motion.length - 1];
    if (!m) return;
    const deg = (v) => (v === null || v === undefined ? '–' : `${v.toFixed(1)}°`);
    $('roll').textContent = deg(m.euler[0]);
    $('pitch').textContent = deg(m.euler[1]);
    $('yaw').textContent = deg(m.euler[2]);
    $('heading').textContent = deg(m.heading);
  }

  // ---- Graphs -------------------------------------------------------------------------------
  const graphSpecs = [
    { id: 'graph-acceleration', value: (m) => m.acc, min: 2 },
    { id: 'graph-rotation', value: (m) => m.rot, min: 90 },
    { id: 'graph-attitude', value: (m) => m.euler, fixed: 180 },
  ];
  const colours = ['#d33a2c', '#1f8f3a', '#2d5fd3'];
  function graphs(tEnd) {
    for (const g of graphSpecs) {
      const c = $(g.id);
      // Drawn at the canvas's shown size (crisp on any screen).
      const w = Math.max(100, Math.round(c.clientWidth * devicePixelRatio)), h = Math.round(c.clientHeight * devicePixelRatio);
      if (c.width !== w || c.height !== h) { c.width = w; c.height = h; }
      const ctx = c.getContext('2d');
      ctx.clearRect(0, 0, w, h);
      const ms = state.motion.filter((m) => m.t >= tEnd - HISTORY_S && m.t <= tEnd);
      let range = g.fixed || g.min;
      if (!g.fixed) for (const m of ms) for (const v of g.value(m)) if (Math.abs(v) > range) range = Math.abs(v);
      const px = (t) => (t - (tEnd - HISTORY_S)) / HISTORY_S * w;
      const py = (v) => h / 2 - v / range * (h / 2 - 4);
      ctx.strokeStyle = '#e3e6ea'; ctx.lineWidth = 1;
      ctx.beginPath();
      for (let s = 1; s < HISTORY_S; s++) { ctx.moveTo(px(tEnd - s), 0); ctx.lineTo(px(tEnd - s), h); }
      ctx.moveTo(0, h / 2); ctx.lineTo(w, h / 2);
      ctx.stroke();
      ctx.fillStyle = '#5b6470'; ctx.font = `${11 * devicePixelRatio}px sans-serif`;
      ctx.fillText(`±${range.toFixed(range < 10 ? 1 : 0)}`, 4, 12 * devicePixelRatio);
      ctx.lineWidth = 1.5 * devicePixelRatio;
      for (let k = 0; k < 3; k++) {
        ctx.strokeStyle = colours[k];
        ctx.beginPath();
        let prev = null;
        for (const m of ms) {
          const v = g.value(m)[k];
          if (v === null || v === undefined) continue;
          // Attitude angles wrap at ±180°: no line across the graph.
          if (g.fixed && prev !== null && Math.abs(v - prev) > 180) ctx.moveTo(px(m.t), py(v));
          else ctx.lineTo(px(m.t), py(v));
          prev = v;
        }
        ctx.stroke();
      }
    }
    state.graphEnd = tEnd;
  }

  // ---- Events, rules, GPIO ------------------------------------------------------------------
  function describe(e) {
    switch (e.type) {
      case 'shake': return `shake ${e.phase}`;
      case 'orientation': return `orientation ${e.orientation}`;
      case 'slap': return `slap ${e.direction}`;
      case 'heading': return `heading ${Number(e.heading_deg).toFixed(1)}°`;
    }
    return JSON.stringify(e);
  }
  function addLog(list, text, t) {
    const li = document.createElement('li');
    if (t !== null && t !== undefined) {
      const s = document.createElement('span');
      s.className = 't'; s.textContent = `${Number(t).toFixed(2)} s`;
      li.appendChild(s);
    }
    li.appendChild(document.createTextNode(text));
    list.insertBefore(li, list.firstChild);
    while (list.children.length > MAX_EVENTS) list.removeChild(list.lastChild);
    return li;
  }
  function addEvent(e) {
    addLog($('events'), describe(e), e.t);
    state.events.push({ line: e, t: e.t, shownAtMs: performance.timeOrigin + performance.now() });
    if (state.events.length > 1000) state.events.splice(0, state.events.length - 1000);
  }
  function addRule(r) {
    const levels = (r.lines || []).map((l) => `${l.name || 'line ' + l.offset} ${l.high ? 'high' : 'low'}`).join(', ');
    addLog($('rules'), `${r.rule} ← ${r.event ? describe(r.event) : ''}${levels ? ' → ' + levels : ''}`, r.t);
    if (r.lines) gpio(r.lines, true);
  }
  // The rules in force (at start and after each reload): name, the event, what it does.
  function ruleList(rules) {
    const ul = $('rule-list');
    ul.textContent = '';
    if (!rules.length) { const li = document.createElement('li'); li.className = 'none'; li.textContent = 'no rules loaded'; ul.appendChild(li); }
    for (const r of rules) {
      const li = document.createElement('li');
      const name = document.createElement('b');
      name.textContent = r.name;
      li.appendChild(name);
      li.appendChild(document.createTextNode(` on ${r.on}: ${r.actions}`));
      ul.appendChild(li);
    }
  }
  const lineLevels = new Map();
  function gpio(lines, merge) {
    if (!merge) lineLevels.clear();
    for (const l of lines) lineLevels.set(l.name || `line ${l.offset}`, !!l.high);
    const ul = $('gpio');
    ul.textContent = '';
    if (!lineLevels.size) { const li = document.createElement('li'); li.className = 'none'; li.textContent = 'no GPIO lines driven'; ul.appendChild(li); }
    for (const [name, high] of lineLevels) {
      const li = document.createElement('li');
      li.className = high ? 'high' : '';
      li.textContent = `${name} ${high ? 'high' : 'low'}`;
      ul.appendChild(li);
    }
  }

  // ---- Health and calibration status ---------------------------------------------------------
  // Calibration parts: "calibrated", "uncalibrated", or the magnetometer's accuracy (high, medium, low).
  function showCalibration(cal) {
    for (const [id, key] of [['cal-gyro', 'gyroscope'], ['cal-accel', 'accelerometer'], ['cal-mag', 'magnetometer']]) {
      if (!(key in cal)) continue;
      const text = String(cal[key]);
      $(id).textContent = text;
      $(id).className = /^(calibrated|high|medium)/.test(text) ? 'good' : /^low/.test(text) ? 'warn' : 'bad';
    }
  }
  // The engine's health line: {"type":"health","state":"measuring","rate_hz":…,"lost_samples":…,"outages":…,"problem":…,"calibration":"gyroscope, magnetometer","mag_accuracy":"high"}.
  function health(h) {
    state.health = h;
    if (h.calibration && typeof h.calibration === 'object') return showCalibration(h.calibration);
    if (typeof h.calibration === 'string') {
      const parts = h.calibration.split(', ');
      const cal = {};
      for (const p of ['gyroscope', 'accelerometer']) cal[p] = parts.includes(p) ? 'calibrated' : 'uncalibrated';
      if (state.hello && state.hello.magnetometer) cal.magnetometer = parts.includes('magnetometer') ? (h.mag_accuracy || 'calibrated') : 'uncalibrated';
      showCalibration(cal);
    }
    if ('state' in h) {
      const outages = h.outages || 0;
      $('bus').textContent = `${h.state}${h.rate_hz ? ` at ${Number(h.rate_hz).toFixed(0)} Hz` : ''}, ${outages} outage${outages === 1 ? '' : 's'}` +
        (h.problem ? ` — ${h.problem}` : '');
      $('bus').className = h.state === 'outage' || h.problem ? 'bad' : outages ? 'warn' : 'good';
      $('lost').textContent = `${h.lost_samples || 0} samples in acquisition, ${state.lost} lines to this page`;
      $('lost').className = h.lost_samples || state.lost ? 'warn' : 'good';
    }
  }

  // ---- Calibration ---------------------------------------------------------------------------
  function post(path) {
    return fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}', credentials: 'same-origin' })
      .then((r) => r.json().catch(() => ({})).then((j) => { if (!r.ok) $('cal-prompt').textContent = j.error || `refused (${r.status})`; }))
      .catch((e) => { $('cal-prompt').textContent = `not sent: ${e}`; });
  }
  $('start-gyro').onclick = () => post('/api/calibration/gyroscope');
  $('start-accel').onclick = () => post('/api/calibration/accelerometer');
  $('start-mag').onclick = () => post('/api/calibration/magnetometer');
  $('cancel-cal').onclick = () => post('/api/calibration/cancel');

  const points = [];              // magnetometer readings of the running sweep, µT
  function calibration(c) {
    const previous = state.calibration;
    if (!previous || previous.kind !== c.kind || c.state === 'started') points.length = 0;
    state.calibration = c;
    if (c.points) for (const p of c.points) points.push(p);
    const running = c.state === 'started' || c.state === 'collecting';
    $('cancel-cal').disabled = !running;
    $('cal-prompt').textContent = c.prompt || c.state;
    $('cal-prompt').className = 'prompt ' + (c.state === 'saved' ? 'good' : c.state === 'refused' ? 'bad' : '');
    const f = c.figures || {};
    const fig = (id, v, good) => {
      $(id).textContent = v === null || v === undefined ? '–' : `${v.toFixed(1)} %`;
      $(id).className = v === null || v === undefined ? '' : v < good ? 'good' : 'bad';
    };
    fig('fig-gaps', f.gaps_pct, 15); fig('fig-variance', f.variance_pct, 4.5);
    fig('fig-wobble', f.wobble_pct, 4); fig('fig-fit', f.fit_error_pct, 5);
    $('fig-readings').textContent = f.readings ?? (c.kind === 'mag' ? points.length : '–');
  }

  // The readings around the fitted centre, on a sphere turning slowly about the vertical.
  function drawSphere(nowMs) {
    const c = $('sphere'), ctx = c.getContext('2d'), w = c.width, h = c.height;
    const cal = state.calibration, centre = cal.centre || [0, 0, 0], radius = cal.field_ut || 50;
    ctx.clearRect(0, 0, w, h);
    ctx.strokeStyle = '#d7dbe0';
    ctx.beginPath(); ctx.arc(w / 2, h / 2, w * 0.4, 0, 2 * Math.PI); ctx.stroke();
    const a = nowMs / 4000, ca = Math.cos(a), sa = Math.sin(a), tilt = 0.35, ct = Math.cos(tilt), st = Math.sin(tilt);
    const scale = w * 0.4 / radius;
    for (const p of points) {
      const x = p[0] - centre[0], y = p[1] - centre[1], z = p[2] - centre[2];
      const xr = x * ca - y * sa, yr = x * sa + y * ca;       // about the vertical
      const up = z * ct + yr * st, depth = z * st - yr * ct;   // seen from a little above: far points higher
      ctx.fillStyle = depth > 0 ? '#2d5fd3' : '#9db4ea';
      ctx.fillRect(w / 2 + xr * scale - 1.5, h / 2 - up * scale - 1.5, 3, 3);
    }
  }

  connect();
  requestAnimationFrame(frame);
})();

// Answer out loud on the practise form: record (button or Alt+R), live level meter and elapsed
// time, stop; the recording is uploaded to /questions/<id>/speech, transcribed offline by the
// server's speech worker, and the transcript lands in the answer box to be corrected before
// "Get feedback" (its word timings go in the hidden "speech" field for delivery feedback).
// A failed transcription keeps the recording here for "Retry transcription".
(() => {
  const box = document.getElementById("speech-controls");
  if (!box || !navigator.mediaDevices || !window.MediaRecorder) return;
  box.hidden = false;
  const $ = (id) => document.getElementById(id);
  const rec = $("speech-record"), stop = $("speech-stop"), level = $("speech-level"), elapsed = $("speech-elapsed");
  const retry = $("speech-retry"), status = $("speech-status"), hidden = $("speech-transcript"), answer = $(box.dataset.target || "practice-answer");
  let recorder = null, stream = null, timer = null, audioCtx = null, lastBlob = null;

  const say = (text, bad) => { status.textContent = text; status.className = "small " + (bad ? "bad" : "muted"); };

  async function start() {
    if (recorder) return;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (err) {
      const refused = err && (err.name === "NotAllowedError" || err.name === "SecurityError");
      say(refused ? "Microphone permission refused: allow the microphone for this page (the icon in the address bar), or type your answer."
                  : `No microphone could be opened (${err && err.name}): type your answer instead.`, true);
      return;
    }
    const chunks = [];
    recorder = new MediaRecorder(stream);
    recorder.ondataavailable = (ev) => { if (ev.data.size) chunks.push(ev.data); };
    recorder.onstop = () => { finish(); upload(new Blob(chunks, { type: recorder.mimeType || "audio/webm" })); recorder = null; };
    recorder.start(250);
    const t0 = Date.now();
    rec.hidden = true; stop.hidden = false; level.hidden = false; elapsed.hidden = false; retry.hidden = true;
    say("Recording… speak your answer, then Stop (Alt+R).");
    timer = setInterval(() => {
      const s = Math.floor((Date.now() - t0) / 1000);
      elapsed.textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    }, 250);
    try {
      audioCtx = new AudioContext();
      const analyser = audioCtx.createAnalyser();
      analyser.fftSize = 512;
      audioCtx.createMediaStreamSource(stream).connect(analyser);
      const buf = new Float32Array(analyser.fftSize);
      const draw = () => {
        if (!recorder) return;
        analyser.getFloatTimeDomainData(buf);
        let sum = 0;
        for (const v of buf) sum += v * v;
        level.value = Math.min(1, Math.sqrt(sum / buf.length) * 4);
        requestAnimationFrame(draw);
      };
      draw();
    } catch (e) { /* no meter: recording still works */ }
  }

  function finish() {
    clearInterval(timer);
    if (stream) stream.getTracks().forEach((t) => t.stop());
    if (audioCtx) audioCtx.close();
    stream = null; audioCtx = null;
    rec.hidden = false; stop.hidden = true; level.hidden = true; level.value = 0;
  }

  async function upload(blob) {
    lastBlob = blob;
    say("Transcribing on this machine… (the first recording loads the speech model)");
    rec.disabled = true; retry.hidden = true;
    const form = new FormData();
    form.append("audio", blob, "answer.webm");
    try {
      const r = await fetch(box.dataset.url, { method: "POST", body: form });
      const body = await r.json().catch(() => ({ error: `the server answered ${r.status}` }));
      if (!r.ok) {
        say(body.error || body.detail || `Transcription failed (${r.status}).`, true);
        retry.hidden = !(r.status >= 500);
        return;
      }
      answer.value = body.text;
      hidden.value = body.transcript;
      lastBlob = null;
      if (box.dataset.saveUrl) {  // a mock item: save the answer with its transcript now (the timer runs on)
        const saved = await fetch(box.dataset.saveUrl, {
          method: "POST",
          headers: { "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ answer: body.text, speech: body.transcript }),
        });
        const redirect = saved.headers.get("HX-Redirect");
        if (redirect) { window.location.assign(redirect); return; }
        answer.dispatchEvent(new Event("input"));
      }
      say(`Transcribed ${Math.round(body.duration)} s (${body.engine}). Correct the text if it misheard you, then Get feedback.`);
      answer.focus();
    } catch (e) {
      say("Transcription failed (the server did not answer): your recording is kept here, retry when it is back.", true);
      retry.hidden = false;
    } finally {
      rec.disabled = false;
    }
  }

  rec.addEventListener("click", start);
  stop.addEventListener("click", () => { if (recorder && recorder.state !== "inactive") recorder.stop(); });
  retry.addEventListener("click", () => { if (lastBlob) upload(lastBlob); });
  document.addEventListener("keydown", (ev) => {
    if (ev.altKey && (ev.key === "r" || ev.key === "R")) {
      ev.preventDefault();
      if (recorder) stop.click(); else start();
    }
  });
})();

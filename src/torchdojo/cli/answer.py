"""``torchdojo answer ENTRY_ID``: answer one question in the terminal and get it graded.

Outside a mock interview: no clock, nothing stored. The answer is typed (end it with a line
containing only ``.``, as in ``torchdojo mock``), read from ``--file``, or spoken (``--audio FILE``:
transcribed offline by :mod:`torchdojo.speech`, corrected in an editor, and shown with delivery
feedback beside the content feedback), graded in this process by
``dojo.grader`` and shown with the mock report's per-answer rendering
(:func:`torchdojo.cli.mock.feedback_panel`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from torchdojo.bank.taxonomy import TOPICS

console = Console(highlight=False)


def _dojo():
    from torchdojo.core import Dojo

    return Dojo()


def _read_typed() -> str:
    """Lines typed until one containing only ``.`` (or end of input)."""
    console.print("Type your answer. End it with a line containing only [bold].[/]")
    lines: list[str] = []
    while True:
        try:
            line = console.input("| ")
        except EOFError:
            break
        if line.strip() == ".":
            break
        lines.append(line)
    return "\n".join(lines)


def answer(
    entry_id: Annotated[str, typer.Argument(help="the question's id, e.g. what-is-autograd (see `torchdojo search`)")],
    file: Annotated[
        Path | None, typer.Option("--file", "-f", help="read the answer from this file instead of the terminal")
    ] = None,
    review: Annotated[bool | None, typer.Option(
        "--review/--no-review", help="confirm or change the machine's marks afterwards (default: in a terminal)")] = None,
    audio: Annotated[Path | None, typer.Option(
        "--audio", "-a", help="answer out loud: transcribe this recording (wav, mp3, ogg, webm, m4a… anything FFmpeg reads)")] = None,
    record: Annotated[bool, typer.Option("--record", help="record the answer from the microphone")] = False,
    edit: Annotated[bool | None, typer.Option(
        "--edit/--no-edit", help="correct the transcript in $EDITOR before grading (default: in a terminal)")] = None,
) -> None:
    """Answer one question and get feedback: key points made and missed, misconceptions, a follow-up.

    The answer is kept with its rubric scorecard; in a terminal you then confirm or change the
    machine's marks (self-review; --no-review skips it). Exit status: 0 graded, 1 could not be
    graded, 2 unknown id, unreadable file or recording that cannot be transcribed, 130 interrupted.
    """
    from torchdojo.cli.mock import feedback_panel

    d = _dojo()
    entry = d.bank.get(entry_id)
    if entry is None and entry_id.startswith("own:"):  # an own card: graded on its key points (kp1…kpN)
        from torchdojo.practice.flashcards import UnknownEntryError

        try:
            entry = d.flashcards.card(entry_id)[0]
        except UnknownEntryError:
            entry = None
        if entry is not None and not entry.meta.key_points:
            console.print(f"[red]Own card '{escape(entry_id)}' has no key points, so an answer to it cannot be graded:[/] "
                          f"rate yourself in review, or add some: torchdojo cards edit {escape(entry_id)} --key-point …")
            raise typer.Exit(2)
    if entry is None:
        console.print(f"[red]No question with id '{escape(entry_id)}'.[/] Find ids with: torchdojo search WORDS")
        raise typer.Exit(2)
    text = ""
    if file is not None:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            console.print(f"[red]Cannot read the answer from {escape(str(file))}:[/] {escape(str(e))}")
            raise typer.Exit(2) from None
    if record:
        audio = _record(d)
    transcript = None
    if audio is not None:
        transcript, text = _transcribe(d, entry, audio, sys.stdin.isatty() if edit is None else edit, recorded=record)
        if record and not d.settings.speech_keep_recordings:
            audio.unlink(missing_ok=True)  # transcribed: the recording is not kept unless asked
    m = entry.meta
    sub = f"{m.level or 'any level'} · {m.type} · {', '.join(TOPICS.get(t, t) for t in m.topics)}"
    console.print(Panel(Text(m.title, style="bold"), title=Text(entry.id), subtitle=Text(sub), padding=(1, 2)))
    if transcript is not None:
        console.print(Panel(Text(text), title=Text(f"your spoken answer ({transcript.duration:.0f} s, "
                                                   f"{transcript.engine})"), border_style="green"))
    elif file is not None:
        console.print(Text(f"Answer read from {file}:"))
        console.print(Panel(Text(text), title=Text(f"your answer ({len(text)} characters)"), border_style="green"))
    else:
        try:
            text = _read_typed()
        except KeyboardInterrupt:
            console.print()
            raise typer.Exit(130) from None
    try:
        with console.status("loading the answer grader… (the first time this loads a sentence-embedding model)") as st:
            grader = d.grader
            warm_up = getattr(grader, "warm_up", None)
            if callable(warm_up):
                warm_up()
            st.update("grading your answer…")
            fb = grader.grade(entry, text)
    except KeyboardInterrupt:
        console.print()
        raise typer.Exit(130) from None
    except Exception as e:  # a missing model, a grader bug: say so, never a made-up score
        console.print(f"[red]Could not grade the answer:[/] {type(e).__name__}: {escape(str(e))}")
        raise typer.Exit(1) from None
    console.print(feedback_panel(text, fb, Text(f"Feedback · {m.title}"), what="answer"))
    if transcript is not None:
        from torchdojo.speech.delivery import delivery

        console.print(delivery_panel(delivery(transcript, text, None if fb.error else fb,
                                              [k.text for k in m.key_points])))
    sid = d.scorecards.create(entry.id, text, fb, context="practice")
    if review is None:
        review = sys.stdin.isatty()
    if review and text.strip():
        from torchdojo.cli.scorecards import REVIEW_HELP, review_one

        console.rule("[bold]Self-review[/]: confirm or change the machine's marks")
        console.print(REVIEW_HELP)
        try:
            review_one(d, sid, "Your scorecard")
        except (KeyboardInterrupt, EOFError):
            console.print("\nStopped: the marks you set are saved.")
    where = "torchdojo cards list --own" if m.type == "own" else f"torchdojo show {escape(entry.id)}"
    console.print(f"[dim]Your answer is saved with scorecard #{sid}. The model answer: [bold]{where}[/][/]")
    if fb.error:
        raise typer.Exit(1)


def _record(d) -> Path:
    """Record the answer from the default microphone (sounddevice over PortAudio, 16 kHz mono)
    until Enter or the length cap; returns a temporary WAV file. Exits 2 with a message where no
    microphone can be opened (PortAudio missing, no input device, permission refused)."""
    import queue
    import tempfile
    import threading
    import wave

    hint = "Record with any app and pass the file: torchdojo answer ID --audio answer.wav"
    try:
        import sounddevice as sd
    except (ImportError, OSError) as e:  # OSError: the PortAudio library is missing
        console.print(f"[red]No microphone support here:[/] {escape(str(e))} (Debian: apt install libportaudio2). {hint}")
        raise typer.Exit(2) from None
    try:
        device = sd.query_devices(kind="input")
    except Exception as e:  # sounddevice.PortAudioError and friends: no default input device
        console.print(f"[red]No microphone found:[/] {escape(str(e))}. {hint}")
        raise typer.Exit(2) from None
    cap = d.settings.speech_max_seconds
    chunks: queue.Queue = queue.Queue()
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()
    try:
        with sd.InputStream(samplerate=16000, channels=1, dtype="int16",
                            callback=lambda data, frames, t, status: chunks.put(bytes(data))):
            console.print(f"[bold]Recording[/] from {escape(str(device.get('name', 'the microphone')))}… "
                          f"answer out loud, then press Enter (at most {cap:.0f} s).")
            stop.wait(cap)
    except Exception as e:
        console.print(f"[red]The microphone could not be opened:[/] {escape(str(e))}. {hint}")
        raise typer.Exit(2) from None
    path = Path(tempfile.mkstemp(prefix="torchdojo-answer-", suffix=".wav")[1])
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        while not chunks.empty():
            w.writeframes(chunks.get())
    return path


def _transcribe(d, entry, audio: Path, edit: bool, recorded: bool = False):
    """Transcribe ``audio`` in this process (the model loads in about a second) and let the
    learner correct it. Exits 2 with a message naming the file when it cannot be transcribed."""
    from torchdojo.speech import SpeechError
    from torchdojo.speech.engine import load_engine
    from torchdojo.speech.vocab import Vocabulary

    try:
        with console.status(f"transcribing {audio.name} (offline)…"):
            engine = load_engine(Vocabulary.from_bank(d.bank), d.settings.speech_engine,
                                 threads=d.settings.speech_threads, max_seconds=d.settings.speech_max_seconds)
            if getattr(engine, "fallback_reason", None):
                console.print(f"[yellow]faster-whisper did not load ({escape(engine.fallback_reason)}): "
                              f"using the less accurate {engine.name}; check the transcript closely.[/]")
            transcript = engine.transcribe(audio, name=str(audio), entry=entry)
    except SpeechError as e:
        console.print(f"[red]Cannot use the recording:[/] {escape(str(e))}")
        if recorded and e.kind == "engine":  # kept for a retry: nothing the candidate said is lost
            console.print(f"The recording is kept at {escape(str(audio))}: retry with --audio {escape(str(audio))}")
        elif recorded:
            audio.unlink(missing_ok=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        console.print()
        raise typer.Exit(130) from None
    text = transcript.text
    console.print(Panel(Text(text), title=Text("transcript"), border_style="blue"))
    if edit:
        edited = typer.edit(text + "\n", extension=".txt")
        if edited is not None:
            text = edited.strip()
    return transcript, text


def delivery_panel(dv) -> Panel:
    """Delivery feedback (:class:`torchdojo.speech.delivery.Delivery`) as a Rich panel."""
    lo, hi = dv.wpm_range
    rows = [
        ("Speaking rate", "not enough words to say" if dv.wpm is None else
         f"{dv.wpm:.0f} words/min ({dv.pace}; {lo}–{hi} is comfortable for an explanation)"),
        ("Filler words", f"{dv.filler_count}" + (f" ({dv.fillers_per_minute:.1f}/min: "
                                                  + ", ".join(f"{k} ×{v}" for k, v in dv.fillers.items()) + ")"
                                                  if dv.filler_count and dv.fillers_per_minute is not None else "")),
        ("Longest pause", f"{dv.longest_pause:.1f} s" + (f" after “{dv.longest_pause_after}”" if dv.longest_pause_after else "")),
        ("First key point", "none made" if dv.time_to_first_key_point is None else
         f"at {dv.time_to_first_key_point:.1f} s ({dv.first_key_point})"),
        ("First 20 seconds", "unknown" if dv.states_answer_early is None else
         "state the answer" if dv.states_answer_early else "do not state the answer"),
    ]
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    for k, v in rows:
        grid.add_row(k, v)
    parts: list = [grid] + [Text("• " + n, style="yellow") for n in dv.notes]
    return Panel(Group(*parts), title=Text(f"Delivery · {dv.duration:.0f} s recording"), border_style="cyan")

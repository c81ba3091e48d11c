"""The one fixed taxonomy of topics, levels and question types.

Every bank entry's ``topics`` must come from :data:`TOPICS`; the folder an entry lives in
(``bank/questions/<topic>/``) must be its first (primary) topic. Changing a slug here is a
breaking change for the bank and for stored progress: add, never rename.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

#: slug -> human-readable name, in the order the interfaces list them.
TOPICS: dict[str, str] = {
    "tensors": "Tensors",
    "autograd": "Autograd",
    "nn-module": "nn.Module",
    "training-loop": "Training loop",
    "data-loading": "Data loading",
    "optimization": "Optimizers & schedulers",
    "regularization-normalization": "Regularization & normalization",
    "mixed-precision": "Mixed precision",
    "memory-performance": "Memory & performance",
    "distributed": "Distributed training",
    "compile-export": "torch.compile, TorchScript & export",
    "deployment-quantization": "Deployment & quantization",
    "transformers": "Transformers & architectures",
    "debugging": "Debugging",
    "dsa": "Algorithms with tensors",
    "system-design": "ML system design",
    "behavioral": "Behavioral",
}

#: The coverage catalogue's topic names mapped to taxonomy slugs.
CATALOGUE_TOPICS: dict[str, str] = {
    "tensors": "tensors",
    "autograd": "autograd",
    "nn.Module": "nn-module",
    "training loop": "training-loop",
    "data loading": "data-loading",
    "optimization & schedulers": "optimization",
    "regularization & normalization": "regularization-normalization",
    "mixed precision": "mixed-precision",
    "memory & performance": "memory-performance",
    "distributed": "distributed",
    "torch.compile/TorchScript/export": "compile-export",
    "deployment & quantization": "deployment-quantization",
    "transformers & architectures": "transformers",
    "debugging": "debugging",
    "DSA with tensors": "dsa",
    "system design": "system-design",
    "behavioral": "behavioral",
}

Level = Literal["junior", "mid", "senior"]
LEVELS: tuple[str, ...] = ("junior", "mid", "senior")

QuestionType = Literal["concept", "coding", "debugging", "system-design", "behavioral"]
QUESTION_TYPES: tuple[str, ...] = ("concept", "coding", "debugging", "system-design", "behavioral")

#: What a runnable example may need. ``cpu``: any machine. ``cuda``: one CUDA device.
#: ``multi-gpu``: two or more CUDA devices. ``multiprocess``: spawns several processes
#: (e.g. torch.distributed with the gloo backend on CPU).
NEEDS: tuple[str, ...] = ("cpu", "cuda", "multi-gpu", "multiprocess")


def topic_counts(topic_lists: Iterable[Sequence[str]]) -> dict[str, int]:
    """How many items (entries, challenges: pass each one's ``topics``) carry each topic slug,
    for every slug of :data:`TOPICS` in taxonomy order (0 for none); an item counts once per topic."""
    counts = dict.fromkeys(TOPICS, 0)
    for topics in topic_lists:
        for slug in set(topics):
            if slug in counts:
                counts[slug] += 1
    return counts

import torch.nn as nn


def build_param_groups(model: nn.Module, weight_decay: float, decay_embeddings: bool = False) -> list[dict]:
    """[decay group, no-decay group]: each {"params": [...], "names": [...], "weight_decay": float}."""
    raise NotImplementedError

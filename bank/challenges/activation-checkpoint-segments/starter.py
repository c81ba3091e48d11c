import torch
from torch import nn
from torch.utils.checkpoint import checkpoint  # noqa: F401 - use it with use_reentrant=False


def checkpointed_forward(model: nn.Sequential, x: torch.Tensor, segments: int) -> torch.Tensor:
    raise NotImplementedError

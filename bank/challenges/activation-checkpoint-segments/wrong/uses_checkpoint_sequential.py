# expect: Rule Violation
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint_sequential


def checkpointed_forward(model: nn.Sequential, x: torch.Tensor, segments: int) -> torch.Tensor:
    return checkpoint_sequential(model, segments, x, use_reentrant=False)

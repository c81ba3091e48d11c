# expect: Wrong Answer
import torch
from torch import nn


def checkpointed_forward(model: nn.Sequential, x: torch.Tensor, segments: int) -> torch.Tensor:
    # right values and gradients, but every activation is stored: nothing is recomputed, no memory saved
    return model(x)

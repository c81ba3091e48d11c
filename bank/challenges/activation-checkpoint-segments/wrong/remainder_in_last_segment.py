# expect: Wrong Answer
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def _run(layers):
    def f(h):
        for layer in layers:
            h = layer(h)
        return h
    return f


def checkpointed_forward(model: nn.Sequential, x: torch.Tensor, segments: int) -> torch.Tensor:
    layers = list(model)
    n = len(layers)
    size = n // segments  # checkpoint_sequential's split: the remainder all goes to the last segment
    bounds = [(i * size, (i + 1) * size) for i in range(segments - 1)] + [((segments - 1) * size, n)]
    h = x
    for start, end in bounds[:-1]:
        # only h (the segment's input) is kept; the segment's inner activations are recomputed in backward.
        # use_reentrant=False: parameters get gradients even when x does not require grad.
        h = checkpoint(_run(layers[start:end]), h, use_reentrant=False)
    start, end = bounds[-1]
    return _run(layers[start:end])(h)  # the last segment is needed at once in backward: run it normally

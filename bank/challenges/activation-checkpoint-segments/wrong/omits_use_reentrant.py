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
    size, extra = divmod(n, segments)  # as equal as possible, the first n % segments one layer longer
    bounds, start = [], 0
    for i in range(segments):
        end = start + size + (1 if i < extra else 0)
        bounds.append((start, end))
        start = end
    h = x
    for start, end in bounds[:-1]:
        # only h (the segment's input) is kept; the segment's inner activations are recomputed in backward.
        # use_reentrant=False: parameters get gradients even when x does not require grad.
        h = checkpoint(_run(layers[start:end]), h)  # the default in 2.x is still the reentrant variant
    start, end = bounds[-1]
    return _run(layers[start:end])(h)  # the last segment is needed at once in backward: run it normally

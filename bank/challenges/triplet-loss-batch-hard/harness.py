import torch

from torchdojo.judge.testing import vjp


def run(sol, inputs):
    x = inputs["embeddings"].clone().requires_grad_(True)
    loss = sol.batch_hard_triplet_loss(x, inputs["labels"].clone(), inputs["margin"])
    if isinstance(loss, torch.Tensor) and loss.requires_grad:
        (g,) = vjp(loss, x, seed=1, materialize=True)
    else:  # a constant loss (no valid anchor) has a zero gradient
        g = torch.zeros_like(x)
    return {"loss": loss, "grad": g}

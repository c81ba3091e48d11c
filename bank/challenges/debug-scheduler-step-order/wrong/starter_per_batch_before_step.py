# expect: Wrong Answer
import torch.nn.functional as F


def train(model, opt, scheduler, batches, epochs):
    """`epochs` passes over `batches`; `scheduler` is an epoch-based schedule (StepLR and friends).

    Returns the loss of every optimizer step, as Python floats.
    """
    losses = []
    for _ in range(epochs):
        for x, y in batches:
            scheduler.step()
            opt.zero_grad()
            loss = F.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
    return losses

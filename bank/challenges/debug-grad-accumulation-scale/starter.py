import torch.nn.functional as F


def train(model, opt, micro_batches, accum_steps):
    """Gradient accumulation: one optimizer step per `accum_steps` micro-batches.

    Returns the loss of every micro-batch, as Python floats.
    """
    losses = []
    opt.zero_grad()
    for i, (x, y) in enumerate(micro_batches):
        loss = F.mse_loss(model(x), y)
        loss.backward()
        if i % accum_steps == 0:
            opt.step()
            opt.zero_grad()
        losses.append(loss.item())
    return losses

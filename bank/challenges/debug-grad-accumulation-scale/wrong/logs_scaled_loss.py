# expect: Wrong Answer
import torch.nn.functional as F


def train(model, opt, micro_batches, accum_steps):
    losses = []
    n = len(micro_batches)
    opt.zero_grad()
    for i, (x, y) in enumerate(micro_batches):
        size = min(accum_steps, n - (i - i % accum_steps))
        loss = F.mse_loss(model(x), y) / size
        loss.backward()
        losses.append(loss.item())  # the scaled loss: the logged curve is accum_steps times too low
        if (i + 1) % accum_steps == 0 or i + 1 == n:
            opt.step()
            opt.zero_grad()
    return losses

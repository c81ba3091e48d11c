# expect: Wrong Answer
import torch.nn.functional as F


def train(model, opt, micro_batches, accum_steps):
    losses = []
    n = len(micro_batches)
    for i, (x, y) in enumerate(micro_batches):
        opt.zero_grad()  # habit from the plain loop: wipes the group's earlier micro-batches
        size = min(accum_steps, n - (i - i % accum_steps))
        loss = F.mse_loss(model(x), y)
        (loss / size).backward()
        losses.append(loss.item())
        if (i + 1) % accum_steps == 0 or i + 1 == n:
            opt.step()
    return losses

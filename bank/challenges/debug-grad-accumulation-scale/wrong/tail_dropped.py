# expect: Wrong Answer
import torch.nn.functional as F


def train(model, opt, micro_batches, accum_steps):
    losses = []
    opt.zero_grad()
    for i, (x, y) in enumerate(micro_batches):
        loss = F.mse_loss(model(x), y)
        (loss / accum_steps).backward()
        losses.append(loss.item())
        if (i + 1) % accum_steps == 0:  # a short last group is accumulated but never stepped
            opt.step()
            opt.zero_grad()
    return losses

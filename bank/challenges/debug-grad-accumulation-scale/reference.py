import torch.nn.functional as F


def train(model, opt, micro_batches, accum_steps):
    losses = []
    n = len(micro_batches)
    opt.zero_grad()
    for i, (x, y) in enumerate(micro_batches):
        group_start = i - i % accum_steps
        group_size = min(accum_steps, n - group_start)  # the last group may be shorter
        loss = F.mse_loss(model(x), y)
        (loss / group_size).backward()  # the mean over the group, not the sum of its means
        losses.append(loss.item())  # log the micro-batch's own (unscaled) loss
        if (i + 1) % accum_steps == 0 or i + 1 == n:  # after the LAST micro-batch of each group
            opt.step()
            opt.zero_grad()
    return losses

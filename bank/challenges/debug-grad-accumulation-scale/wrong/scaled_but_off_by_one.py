# expect: Wrong Answer
import torch.nn.functional as F


def train(model, opt, micro_batches, accum_steps):
    losses = []
    opt.zero_grad()
    for i, (x, y) in enumerate(micro_batches):
        loss = F.mse_loss(model(x), y) / accum_steps
        loss.backward()
        if i % accum_steps == 0:  # true at i = 0: the first step uses one micro-batch only
            opt.step()
            opt.zero_grad()
        losses.append(loss.item() * accum_steps)
    return losses
